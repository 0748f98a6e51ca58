"""Order statistics: sorting, partitioning, medians, quantiles and percentiles."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.numpy._common import axis_arg, int64_to_floatx, nan_reduction


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


nanmedian = nan_reduction(jnp.nanmedian, "nanmedian")


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
