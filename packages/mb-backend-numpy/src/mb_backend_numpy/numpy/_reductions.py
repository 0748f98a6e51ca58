"""Reductions over axes: sums, products, means, moments, extremes, arg-extremes, counts,
``average``, ``trapezoid``, ``bincount`` and ``histogram``."""

import warnings

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import is_float_dtype, result_type, standardize_dtype
from mb_backend_numpy.numpy._common import axis_arg, cast, quiet, silent, sum_dtype


def sum(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = sum_dtype(x.dtype)
    return cast(np.sum(x, axis=axis_arg(axis), keepdims=keepdims), dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = to_tensor(x)
    dtype = sum_dtype(x.dtype) if dtype is None else standardize_dtype(dtype)
    return cast(np.prod(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype), dtype)


def _mean_dtype(x):
    dtype = standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return result_type(dtype, "float32")
    return dtype


@quiet
def mean(x, axis=None, keepdims=False):
    x = to_tensor(x)
    if x.size == 0:
        return _empty_safe(_mean, x, axis, keepdims)
    return _mean(x, axis, keepdims)


def _empty_safe(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args)


def _mean(x, axis, keepdims):
    dtype = _mean_dtype(x)
    compute = "float32" if dtype in ("float16", "bfloat16") else dtype
    return cast(np.mean(x, axis=axis_arg(axis), keepdims=keepdims, dtype=compute), dtype)


def max(x, axis=None, keepdims=False, initial=None):
    return np.max(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def min(x, axis=None, keepdims=False, initial=None):
    return np.min(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def amax(x, axis=None, keepdims=False):
    return np.amax(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return np.amin(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return np.all(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    return np.any(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def ptp(x, axis=None, keepdims=False):
    return np.ptp(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def _moment(np_fn, x, axis, keepdims):
    x = to_tensor(x)
    if x.size == 0:
        return _empty_safe(_moment_of, np_fn, x, axis, keepdims)
    return _moment_of(np_fn, x, axis, keepdims)


def _moment_of(np_fn, x, axis, keepdims):
    compute = result_type(x.dtype, "float32")
    out_dtype = result_type(x.dtype, float)
    return cast(np_fn(x, axis=axis_arg(axis), keepdims=keepdims, dtype=compute), out_dtype)


@quiet
def var(x, axis=None, keepdims=False):
    return _moment(np.var, x, axis, keepdims)


@quiet
def std(x, axis=None, keepdims=False):
    return _moment(np.std, x, axis, keepdims)


@silent
def nanvar(x, axis=None, keepdims=False):
    return _moment(np.nanvar, x, axis, keepdims)


@silent
def nanstd(x, axis=None, keepdims=False):
    return _moment(np.nanstd, x, axis, keepdims)


def _arg_extreme(np_fn, x, axis, keepdims):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if "float" in dtype and x.ndim > 0:
        # -0.0 sorts below +0.0, as in JAX.
        x = x.astype(result_type(dtype, "float32"))
        x = np.where((x == 0.0) & np.signbit(x), -np.finfo(x.dtype).tiny, x)
    return cast(np_fn(x, axis=axis_arg(axis), keepdims=keepdims), "int32")


def argmax(x, axis=None, keepdims=False):
    return _arg_extreme(np.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extreme(np.argmin, x, axis, keepdims)


def _nan_arg_extreme(np_fn, fill, x, axis, keepdims):
    x = to_tensor(x)
    if not np.issubdtype(x.dtype, np.floating) and not is_float_dtype(x.dtype):
        return _arg_extreme(np_fn, x, axis, keepdims)
    mask = np.isnan(x)
    found = np_fn(np.where(mask, fill, x), axis=axis, keepdims=keepdims)
    return cast(np.where(np.all(mask, axis=axis, keepdims=keepdims), -1, found), "int32")


@silent
def nanargmax(x, axis=None, keepdims=False):
    return _nan_arg_extreme(np.argmax, -np.inf, x, axis, keepdims)


@silent
def nanargmin(x, axis=None, keepdims=False):
    return _nan_arg_extreme(np.argmin, np.inf, x, axis, keepdims)


@quiet
def average(x, axis=None, weights=None):
    x = to_tensor(x)
    dtypes = [x.dtype, float]
    if weights is not None:
        weights = to_tensor(weights)
        dtypes.append(weights.dtype)
    dtype = result_type(*dtypes)
    x = cast(x, dtype)
    if weights is not None:
        weights = cast(weights, dtype)
    return cast(np.average(x, axis=axis_arg(axis), weights=weights), dtype)


def count_nonzero(x, axis=None):
    return cast(np.count_nonzero(to_tensor(x), axis=axis_arg(axis)), "int32")


@silent
def nansum(x, axis=None, keepdims=False):
    x = to_tensor(x)
    return cast(np.nansum(x, axis=axis_arg(axis), keepdims=keepdims), sum_dtype(x.dtype))


@silent
def nanprod(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = sum_dtype(x.dtype)
    return cast(np.nanprod(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype), dtype)


@silent
def nanmax(x, axis=None, keepdims=False):
    return np.nanmax(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


@silent
def nanmin(x, axis=None, keepdims=False):
    return np.nanmin(to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


@silent
def nanmean(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = result_type(x.dtype, float)
    return cast(np.nanmean(x, axis=axis_arg(axis), keepdims=keepdims), dtype)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = to_tensor(y)
    dtype = result_type(y.dtype, float)
    if x is not None:
        x = to_tensor(x)
    return cast(np.trapezoid(y, x, dx=convert_to_tensor(dx), axis=axis), dtype)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError(
            "bincount(sparse=True) is not supported on the numpy backend: it has no sparse "
            "tensors. Pass sparse=False."
        )
    x = to_tensor(x)
    if weights is not None:
        weights = to_tensor(weights)
        dtype = result_type(x.dtype, weights.dtype)
    else:
        dtype = "int32"
    if x.ndim == 2:
        if weights is None:
            rows = [np.bincount(row, minlength=minlength) for row in x]
        else:
            rows = [
                np.bincount(r, weights=w, minlength=minlength)
                for r, w in zip(x, weights, strict=False)
            ]
        length = max([len(r) for r in rows], default=minlength)
        rows = [np.pad(r, (0, length - len(r))) for r in rows]
        return cast(np.stack(rows) if rows else np.zeros((0, length)), dtype)
    return cast(np.bincount(x, weights=weights, minlength=minlength), dtype)


def histogram(x, bins=10, range=None):
    """Counts and bin edges, both in ``x``'s dtype (mb's rule, as Keras's JAX backend)."""
    x = to_tensor(x)
    counts, edges = np.histogram(x, bins=bins, range=range)
    return counts.astype(x.dtype), edges.astype(x.dtype)
