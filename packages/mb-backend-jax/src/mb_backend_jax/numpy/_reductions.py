"""Reductions, statistics, sorting and cumulative ops."""

import builtins

import jax
import jax.numpy as jnp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_backend_jax.numpy._common import axis_arg, int64_to_floatx
from mb_ops import dtypes


def sum(x, axis=None, keepdims=False):
    """Sum over ``axis`` (all axes when None)."""
    return jnp.sum(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    """Product over ``axis``."""
    x = convert_to_tensor(x)
    return jnp.prod(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype)


def mean(x, axis=None, keepdims=False):
    """Mean over ``axis``: ints give floatx; float16 is accumulated in float32."""
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    compute_dtype = dtypes.result_type(x.dtype, "float32")
    result_dtype = compute_dtype if ("int" in dtype or dtype == "bool") else dtype
    out = jnp.mean(x, axis=axis_arg(axis), keepdims=keepdims, dtype=compute_dtype)
    return cast(out, result_dtype)


def var(x, axis=None, keepdims=False):
    """Variance over ``axis`` (accumulated in at least float32)."""
    x = convert_to_tensor(x)
    compute_dtype = dtypes.result_type(x.dtype, "float32")
    result_dtype = dtypes.result_type(x.dtype, float)
    out = jnp.var(x, axis=axis_arg(axis), keepdims=keepdims, dtype=compute_dtype)
    return cast(out, result_dtype)


def std(x, axis=None, keepdims=False):
    """Standard deviation over ``axis``."""
    x = int64_to_floatx(convert_to_tensor(x))
    return jnp.std(x, axis=axis_arg(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False, initial=None):
    """Maximum over ``axis``."""
    x = convert_to_tensor(x)
    return jnp.max(x, axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def min(x, axis=None, keepdims=False, initial=None):
    """Minimum over ``axis``."""
    x = convert_to_tensor(x)
    return jnp.min(x, axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def amax(x, axis=None, keepdims=False):
    """Maximum over ``axis``."""
    return jnp.amax(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    """Minimum over ``axis``."""
    return jnp.amin(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    """Whether every element along ``axis`` is true."""
    return jnp.all(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    """Whether any element along ``axis`` is true."""
    return jnp.any(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def ptp(x, axis=None, keepdims=False):
    """Range (max - min) over ``axis``."""
    return jnp.ptp(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def count_nonzero(x, axis=None):
    """Number of non-zero elements over ``axis``, as int32."""
    return cast(jnp.count_nonzero(convert_to_tensor(x), axis=axis_arg(axis)), "int32")


def _fix_negative_zero(x):
    # XLA on CPU flushes denormals, so argmax cannot tell -0.0 from 0.0 apart
    # (jax-ml/jax#24280); nudge -0.0 below zero as Keras 3 does.
    dtype = dtypes.standardize_dtype(x.dtype)
    if "float" not in dtype or x.ndim == 0 or jax.default_backend() != "cpu":
        return x
    x = cast(x, dtypes.result_type(dtype, "float32"))
    negative_zero = (x == 0.0) & jnp.signbit(x)
    return jnp.where(negative_zero, -jnp.finfo(x.dtype).tiny, x)


def argmax(x, axis=None, keepdims=False):
    """Index of the maximum along ``axis`` (of the flat array when None)."""
    x = _fix_negative_zero(convert_to_tensor(x))
    return jnp.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x, axis=None, keepdims=False):
    """Index of the minimum along ``axis``."""
    x = _fix_negative_zero(convert_to_tensor(x))
    return jnp.argmin(x, axis=axis, keepdims=keepdims)


def average(x, axis=None, weights=None):
    """Weighted mean over ``axis``."""
    x = convert_to_tensor(x)
    resolve = [x.dtype, float]
    if weights is not None:
        weights = convert_to_tensor(weights)
        resolve.append(weights.dtype)
    dtype = dtypes.result_type(*resolve)
    x = cast(x, dtype)
    if weights is not None:
        weights = cast(weights, dtype)
    return jnp.average(x, axis=axis_arg(axis), weights=weights)


def median(x, axis=None, keepdims=False):
    """Median over ``axis``."""
    x = int64_to_floatx(convert_to_tensor(x))
    out = jnp.median(x, axis=axis_arg(axis), keepdims=keepdims)
    if keepdims and axis is None:
        out = jnp.reshape(out, (1,) * x.ndim)
    return out


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th quantiles (``q`` in [0, 1]) over ``axis``."""
    x = int64_to_floatx(convert_to_tensor(x))
    q = convert_to_tensor(q)
    out = jnp.quantile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)
    if keepdims and axis is None:
        out = jnp.reshape(out, q.shape + (1,) * x.ndim)
    return out


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The ``q``-th percentiles (``q`` in [0, 100]) over ``axis``."""
    x = int64_to_floatx(convert_to_tensor(x))
    q = convert_to_tensor(q)
    return jnp.percentile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)


def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along ``axis`` (of the flat array when None)."""
    return jnp.cumsum(convert_to_tensor(x), axis=axis, dtype=dtype)


def cumprod(x, axis=None, dtype=None):
    """Cumulative product along ``axis``."""
    return jnp.cumprod(convert_to_tensor(x), axis=axis, dtype=dtype)


def nancumsum(x, axis=None, dtype=None):
    """Cumulative sum treating NaN as 0."""
    return jnp.nancumsum(convert_to_tensor(x), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    """Cumulative product treating NaN as 1."""
    return jnp.nancumprod(convert_to_tensor(x), axis=axis, dtype=dtype)


def _nan_reduction(jnp_fn, name):
    def op(x, axis=None, keepdims=False):
        return jnp_fn(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}`` over ``axis``, ignoring NaN."
    return op


nansum = _nan_reduction(jnp.nansum, "nansum")
nanprod = _nan_reduction(jnp.nanprod, "nanprod")
nanmax = _nan_reduction(jnp.nanmax, "nanmax")
nanmin = _nan_reduction(jnp.nanmin, "nanmin")
nanmean = _nan_reduction(jnp.nanmean, "nanmean")
nanmedian = _nan_reduction(jnp.nanmedian, "nanmedian")
nanstd = _nan_reduction(jnp.nanstd, "nanstd")
nanvar = _nan_reduction(jnp.nanvar, "nanvar")


def nanargmax(x, axis=None, keepdims=False):
    """Index of the maximum along ``axis``, ignoring NaN."""
    return jnp.nanargmax(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def nanargmin(x, axis=None, keepdims=False):
    """Index of the minimum along ``axis``, ignoring NaN."""
    return jnp.nanargmin(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """Quantiles over ``axis``, ignoring NaN."""
    x = convert_to_tensor(x)
    q = convert_to_tensor(q)
    return jnp.nanquantile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """Percentiles over ``axis``, ignoring NaN."""
    x = convert_to_tensor(x)
    q = convert_to_tensor(q)
    return jnp.nanpercentile(x, q, axis=axis_arg(axis), method=method, keepdims=keepdims)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of ``y`` along ``axis`` by the trapezoidal rule."""
    y = convert_to_tensor(y)
    if x is not None:
        x = convert_to_tensor(x)
    y = cast(y, dtypes.result_type(y.dtype, float))
    return jnp.trapezoid(y, x, dx=dx, axis=axis)


def histogram(x, bins=10, range=None):
    """Counts and bin edges of ``x`` (a 1-D input)."""
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise ValueError(
            f"histogram expects a 1-D input. Received shape {x.shape}; flatten it first."
        )
    return jnp.histogram(x, bins=bins, range=range)


def sort(x, axis=-1):
    """``x`` sorted along ``axis``."""
    return jnp.sort(convert_to_tensor(x), axis=axis)


def argsort(x, axis=-1):
    """The indices that sort ``x`` along ``axis``."""
    x = convert_to_tensor(x)
    if x.ndim == 0:
        return jnp.argsort(x, axis=None)
    return jnp.argsort(x, axis=axis)


def argpartition(x, kth, axis=-1):
    """Indices that partition ``x`` around its ``kth`` element."""
    x = convert_to_tensor(x)
    if axis is None:
        return jnp.argpartition(jnp.reshape(x, (-1,)), kth, axis=0)
    return jnp.argpartition(x, kth, axis=axis)


def bincount(x, weights=None, minlength=0, sparse=False):
    """Occurrence counts of each non-negative int (row-wise for 2-D input).

    The output length depends on the values, so this op cannot be traced
    under ``jax.jit``.
    """
    if sparse:
        raise ValueError("bincount on the jax backend has no sparse output. Pass sparse=False.")
    x = convert_to_tensor(x)
    if weights is not None:
        weights = convert_to_tensor(weights)
    length = builtins.max(int(jnp.max(x)) + 1 if x.size else 0, minlength)
    if x.ndim == 2:
        if weights is None:
            rows = [jnp.bincount(row, length=length) for row in x]
        else:
            rows = [
                jnp.bincount(r, weights=w, length=length) for r, w in zip(x, weights, strict=True)
            ]
        return jnp.stack(rows)
    return jnp.bincount(x, weights=weights, length=length)


def diff(a, n=1, axis=-1):
    """The ``n``-th discrete difference along ``axis``."""
    return jnp.diff(convert_to_tensor(a), n=n, axis=axis)
