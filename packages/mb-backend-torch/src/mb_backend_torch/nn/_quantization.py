"""Quantized matrix products on ``torch._int_mm`` / ``torch._scaled_mm`` where they run.

Both are private torch kernels, reached through ``mb_backend_torch._compat``; shapes or
devices they do not take fall back to a plain product that gives the same numbers.
"""

import torch

from mb_backend_torch import _compat
from mb_backend_torch._dtypes import to_torch_dtype
from mb_backend_torch.numpy._common import t

# Below this contraction length an int8 x int8 product summed in float32 is exact
# (K * 127 * 127 < 2**24); CUDA has no integer GEMM for the other cases.
_EXACT_IN_FLOAT32 = 1040


def _as_2d(x1):
    return x1.reshape(-1, x1.shape[-1]), x1.shape[:-1]


def int8_matmul(x1, x2):
    x1, x2 = t(x1), t(x2)
    a, lead = _as_2d(x1)
    if _compat.int_mm_supported(a, x2):
        out = _compat.int_mm(a, x2)
    elif a.device.type == "cuda":
        work = torch.float32 if a.shape[1] <= _EXACT_IN_FLOAT32 else torch.float64
        out = torch.matmul(a.to(work), x2.to(work)).round().to(torch.int32)
    else:
        out = torch.matmul(a.to(torch.int32), x2.to(torch.int32))
    return out.reshape(*lead, x2.shape[1])


def float8_matmul(x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    x1, x2 = t(x1), t(x2)
    out_dtype = to_torch_dtype(output_dtype)
    scale_1 = t(x1_scale).to(torch.float32)
    scale_2 = t(x2_scale).to(torch.float32)
    a, lead = _as_2d(x1)
    if _compat.scaled_mm_supported(a, x2):
        out = _compat.scaled_mm(a, x2, scale_1, scale_2, out_dtype)
    else:
        product = torch.matmul(a.to(torch.float32), x2.to(torch.float32))
        out = (product * (scale_1 * scale_2)).to(out_dtype)
    return out.reshape(*lead, x2.shape[1])
