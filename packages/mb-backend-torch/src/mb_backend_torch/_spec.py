"""``compute_output_spec``: run a function on placeholder tensors to learn its outputs.

Placeholders live on torch's ``meta`` device (no memory, no compute); a
function that cannot run there is retried on real tensors. Unknown dimensions
are found by running twice with two different sizes and marking the
dimensions that changed (`mb_ops.numpy_shaped.spec_by_running`).
"""

import torch

import mb_ops
from mb_backend_torch import _device
from mb_backend_torch._dtypes import to_torch_dtype
from mb_ops import numpy_shaped


def _ones_on(device):
    def ones(shape, dtype):
        return torch.ones(shape, dtype=to_torch_dtype(dtype), device=device)

    return ones


_META_ONES = _ones_on("meta")


def _is_tensor(x):
    return isinstance(x, torch.Tensor)


def compute_output_spec(fn, *args, **kwargs):
    """The KerasTensor(s) ``fn(*args, **kwargs)`` would return, for KerasTensor inputs."""
    with mb_ops.StatelessScope(), mb_ops.SymbolicScope(), torch.no_grad():
        try:
            with _device.device_scope("meta"):
                return numpy_shaped.spec_by_running(fn, args, kwargs, _META_ONES, _is_tensor)
        except Exception:
            with _device.device_scope(_device.DEFAULT_DEVICE):
                ones = _ones_on(_device.DEFAULT_DEVICE)
                return numpy_shaped.spec_by_running(fn, args, kwargs, ones, _is_tensor)
