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


def _quantile_function(np_fn, guard):
    """``np_fn`` (``np.quantile`` and kin) as the contract's function: bools compute in
    floatx, ints in a float (int64 in floatx), under ``guard`` (`quiet` or `silent`)."""

    def function(x, q, axis=None, method="linear", keepdims=False):
        x, dtype = _quantile_input(x)
        q = to_tensor(q)
        return cast(np_fn(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims), dtype)

    function.__name__ = function.__qualname__ = np_fn.__name__
    return guard(function)


quantile = _quantile_function(np.quantile, quiet)
nanquantile = _quantile_function(np.nanquantile, silent)
percentile = _quantile_function(np.percentile, quiet)
nanpercentile = _quantile_function(np.nanpercentile, silent)


def sort(x, axis=-1):
    return np.sort(to_tensor(x), axis=axis)


def argsort(x, axis=-1):
    return cast(np.argsort(to_tensor(x), axis=axis), "int32")


def argpartition(x, kth, axis=-1):
    return cast(np.argpartition(to_tensor(x), kth, axis=axis), "int32")
