"""Scans along an axis: cumulative sums and products (and their NaN-ignoring forms) and
their inverse, ``diff``."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.numpy._common import silent


def _scan_dtype(x, dtype):
    dtype = result_type(dtype or x.dtype)
    return "int32" if dtype == "bool" else dtype


def cumsum(x, axis=None, dtype=None):
    x = to_tensor(x)
    dtype = _scan_dtype(x, dtype)
    return np.cumsum(x, axis=axis, dtype=dtype)


def cumprod(x, axis=None, dtype=None):
    x = to_tensor(x)
    dtype = _scan_dtype(x, dtype)
    return np.cumprod(x, axis=axis, dtype=dtype)


@silent
def nancumsum(x, axis=None, dtype=None):
    x = to_tensor(x)
    dtype = _scan_dtype(x, dtype)
    return np.nancumsum(x, axis=axis, dtype=dtype)


@silent
def nancumprod(x, axis=None, dtype=None):
    x = to_tensor(x)
    dtype = _scan_dtype(x, dtype)
    return np.nancumprod(x, axis=axis, dtype=dtype)


def diff(a, n=1, axis=-1):
    return np.diff(to_tensor(a), n=n, axis=axis)
