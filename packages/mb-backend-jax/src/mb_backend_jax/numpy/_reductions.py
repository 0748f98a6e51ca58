"""Reductions over axes: sums, products, means, moments, extremes, arg-extremes, counts,
``average``, ``trapezoid``, ``bincount`` and ``histogram``."""

import builtins

import jax
import jax.numpy as jnp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_backend_jax.numpy._common import axis_arg, int64_to_floatx, nan_reduction
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


nansum = nan_reduction(jnp.nansum, "nansum")
nanprod = nan_reduction(jnp.nanprod, "nanprod")
nanmax = nan_reduction(jnp.nanmax, "nanmax")
nanmin = nan_reduction(jnp.nanmin, "nanmin")
nanmean = nan_reduction(jnp.nanmean, "nanmean")
nanstd = nan_reduction(jnp.nanstd, "nanstd")
nanvar = nan_reduction(jnp.nanvar, "nanvar")


def nanargmax(x, axis=None, keepdims=False):
    """Index of the maximum along ``axis``, ignoring NaN."""
    return jnp.nanargmax(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def nanargmin(x, axis=None, keepdims=False):
    """Index of the minimum along ``axis``, ignoring NaN."""
    return jnp.nanargmin(convert_to_tensor(x), axis=axis, keepdims=keepdims)


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
