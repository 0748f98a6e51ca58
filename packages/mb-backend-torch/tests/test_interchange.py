"""Other engines' arrays convert without a copy (DLPack). Each engine runs in its own process:
jax or TensorFlow loaded next to torch can abort torch's lazy imports (triton), so the
test process itself never imports them."""

import importlib.util
import subprocess
import sys

import pytest

_JAX = """
import os
os.environ["MB_BACKEND"] = "torch"
import jax.numpy as jnp
from mb_backend_torch import core
j = jnp.arange(5.0)
x = core.convert_to_tensor(j)
print(x.dtype, x.data_ptr() == j.unsafe_buffer_pointer(), x.sum().item())
"""

_TF = """
import os
os.environ["MB_BACKEND"] = "torch"
import tensorflow as tf
from mb_backend_torch import core
import numpy as np
import torch

def refuse(*args, **kwargs):
    raise AssertionError("torch.from_dlpack(x) was called for a tensor in host memory")

# the fast path: a CPU tensor's DLPack capsule is taken as it is
torch.from_dlpack = refuse
t = tf.constant([[1.0, 2.0]])
x = core.convert_to_tensor(t)
shared = x.data_ptr() == np.from_dlpack(t).ctypes.data
print(x.dtype, tuple(x.shape), x.sum().item(), shared)
"""


def _run(script):
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_array_converts_through_dlpack_without_copy():
    assert _run(_JAX) == "torch.float32 True 10.0"


@pytest.mark.skipif(
    importlib.util.find_spec("tensorflow") is None, reason="tensorflow is not installed"
)
def test_tensorflow_tensor_converts_from_its_dlpack_capsule_without_copy():
    assert _run(_TF) == "torch.float32 (1, 2) 3.0 True"
