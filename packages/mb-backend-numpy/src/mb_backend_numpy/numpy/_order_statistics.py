"""Order statistics: sorting, partitioning, medians, quantiles and percentiles."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.numpy._common import axis_arg, cast, floatx, quiet, silent


@silent
def median(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = result_type(x.dtype, float)
    return cast(np.median(x, axis=axis_arg(axis), keepdims=keepdims), dtype)


@silent
def nanmedian(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = result_type(x.dtype, float)
    return cast(np.nanmedian(x, axis=axis_arg(axis), keepdims=keepdims), dtype)


def _quantile_input(x):
    x = to_tensor(x)
    if x.dtype == np.bool_:
        x = x.astype(floatx())
    dtype = standardize_dtype(x.dtype)
    out = floatx() if dtype == "int64" else result_type(dtype, float)
    return x, out


@quiet
def quantile(x, q, axis=None, method="linear", keepdims=False):
    x, dtype = _quantile_input(x)
    q = to_tensor(q)
    out = np.quantile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)
    return cast(out, dtype)


@silent
def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    x, dtype = _quantile_input(x)
    q = to_tensor(q)
    out = np.nanquantile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)
    return cast(out, dtype)


@quiet
def percentile(x, q, axis=None, method="linear", keepdims=False):
    x, dtype = _quantile_input(x)
    q = to_tensor(q)
    out = np.percentile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)
    return cast(out, dtype)


@silent
def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    x, dtype = _quantile_input(x)
    q = to_tensor(q)
    out = np.nanpercentile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)
    return cast(out, dtype)


def sort(x, axis=-1):
    return np.sort(to_tensor(x), axis=axis)


def argsort(x, axis=-1):
    return cast(np.argsort(to_tensor(x), axis=axis), "int32")


def argpartition(x, kth, axis=-1):
    return cast(np.argpartition(to_tensor(x), kth, axis=axis), "int32")
