"""Scans along an axis: cumulative sums and products (and their NaN-ignoring forms) and
their inverse, ``diff``."""

import torch

from mb_backend_torch._dtypes import to_torch_dtype
from mb_backend_torch.numpy._common import BOOL, nan_fill, t


def _cumulative(fn, x, axis, dtype):
    x = t(x)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    dtype = to_torch_dtype(dtype) if dtype is not None else x.dtype
    if dtype is BOOL:
        dtype = torch.int32
    if dtype is torch.float16 and x.device.type == "cpu":
        return fn(x, dim=axis, dtype=torch.float32).to(torch.float16)
    return fn(x, dim=axis, dtype=dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(torch.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(torch.cumprod, x, axis, dtype)


def diff(a, n=1, axis=-1):
    a = t(a)
    if a.dtype is BOOL and n > 0:
        out = a
        for _ in range(n):
            out = torch.logical_xor(
                out.narrow(axis, 1, out.shape[axis] - 1), out.narrow(axis, 0, out.shape[axis] - 1)
            )
        return out
    return torch.diff(a, n=n, dim=axis)


def nancumsum(x, axis=None, dtype=None):
    return cumsum(nan_fill(t(x), 0), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    return cumprod(nan_fill(t(x), 1), axis=axis, dtype=dtype)
