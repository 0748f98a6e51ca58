"""Which kernel `dot_product_attention` runs: `flash_attention=False` keeps torch off its
flash kernel (which torch otherwise picks by itself, on CPU too), so that
`mb.config.disable_flash_attention()` is honoured."""

import numpy as np
import torch
from torch.profiler import profile

from mb_backend_torch import nn


def _kernels(fn):
    with profile() as prof:
        out = fn()
    return out, {e.name for e in prof.events() if "attention" in e.name}


def test_flash_false_runs_another_kernel_with_the_same_numbers():
    q = torch.randn(2, 8, 4, 16)
    auto, auto_kernels = _kernels(lambda: nn.dot_product_attention(q, q, q))
    off, off_kernels = _kernels(lambda: nn.dot_product_attention(q, q, q, flash_attention=False))
    assert any("flash" in name for name in auto_kernels)
    assert not any("flash" in name for name in off_kernels)
    np.testing.assert_allclose(off.numpy(), auto.numpy(), rtol=1e-5, atol=1e-6)
