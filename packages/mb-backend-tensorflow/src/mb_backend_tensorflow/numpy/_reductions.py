"""Reductions over axes: sums, products, means, moments, extremes, arg-extremes, counts,
``average``, ``trapezoid``, ``bincount`` and ``histogram``."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._dtypes import floatx, result_type
from mb_backend_tensorflow.numpy._common import dt, nan_to, sum_dtype, tensor
from mb_backend_tensorflow.numpy._cumulative import diff


def _axis(axis):
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def sum(x, axis=None, keepdims=False):
    x = tensor(x)
    x = tf.cast(x, sum_dtype(dt(x)))
    return tf.reduce_sum(x, axis=_axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = tensor(x)
    if dtype is None:
        x = tf.cast(x, sum_dtype(dt(x)))
    else:
        x = tf.cast(x, dtype)
    return tf.reduce_prod(x, axis=_axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    x = tensor(x)
    dtype = dt(x)
    compute = result_type(dtype, "float32")
    out_dtype = compute if ("int" in dtype or dtype == "bool") else dtype
    out = tf.reduce_mean(tf.cast(x, compute), axis=_axis(axis), keepdims=keepdims)
    return tf.cast(out, out_dtype)


def _reduce_extreme(x, axis, keepdims, initial, is_max):
    x = tensor(x)
    axis = _axis(axis)
    if dt(x) == "bool":
        out = (tf.reduce_any if is_max else tf.reduce_all)(x, axis=axis, keepdims=keepdims)
        if initial is not None:
            init = tf.cast(initial, "bool")
            out = tf.logical_or(out, init) if is_max else tf.logical_and(out, init)
        return out
    compute = x
    if dt(x) in ("uint16", "uint32") or dt(x) == "int16":
        compute = tf.cast(x, "int64")
    out = (tf.reduce_max if is_max else tf.reduce_min)(compute, axis=axis, keepdims=keepdims)
    if initial is not None:
        init = tf.cast(initial, out.dtype)
        out = tf.maximum(out, init) if is_max else tf.minimum(out, init)
    return tf.cast(out, x.dtype)


def max(x, axis=None, keepdims=False, initial=None):
    return _reduce_extreme(x, axis, keepdims, initial, is_max=True)


def min(x, axis=None, keepdims=False, initial=None):
    return _reduce_extreme(x, axis, keepdims, initial, is_max=False)


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return tf.reduce_all(tf.cast(tensor(x), "bool"), axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    return tf.reduce_any(tf.cast(tensor(x), "bool"), axis=_axis(axis), keepdims=keepdims)


def _arg_extreme(x, axis, keepdims, is_max):
    x = tensor(x)
    fn = tf.argmax if is_max else tf.argmin
    if dt(x) in ("float16", "bfloat16"):
        x = tf.cast(x, "float32")
    elif x.dtype.is_bool or dt(x) in ("int8", "int16", "uint16"):
        x = tf.cast(x, "int32")
    elif dt(x) == "uint32":
        x = tf.cast(x, "int64")
    original = x
    if axis is None:
        x = tf.reshape(x, [-1])
        out = fn(x, axis=0, output_type="int32")
        if keepdims:
            out = tf.reshape(out, [1] * original.shape.rank)
        return out
    out = fn(x, axis=axis, output_type="int32")
    if keepdims:
        out = tf.expand_dims(out, axis)
    return out


def argmax(x, axis=None, keepdims=False):
    return _arg_extreme(x, axis, keepdims, is_max=True)


def argmin(x, axis=None, keepdims=False):
    return _arg_extreme(x, axis, keepdims, is_max=False)


def _float_cast(x):
    dtype = dt(x)
    if "int" in dtype or dtype == "bool":
        return tf.cast(x, floatx())
    return x


def _moment(name, reduce_fn):
    """``reduce_fn`` (``tf.math.reduce_variance``/``reduce_std``) computed in at least
    float32, returned in ``x``'s float dtype."""

    def moment(x, axis=None, keepdims=False):
        x = tensor(x)
        compute = result_type(dt(x), "float32")
        out_dtype = result_type(dt(x), float)
        out = reduce_fn(tf.cast(x, compute), axis=_axis(axis), keepdims=keepdims)
        return tf.cast(out, out_dtype)

    moment.__name__ = moment.__qualname__ = name
    return moment


var = _moment("var", tf.math.reduce_variance)
std = _moment("std", tf.math.reduce_std)


def average(x, axis=None, weights=None):
    x = tensor(x)
    if weights is None:
        x = tf.cast(x, result_type(dt(x), float))
        return tf.reduce_mean(x, axis=axis)
    weights = tensor(weights)
    dtype = result_type(dt(x), dt(weights), float)
    x, weights = tf.cast(x, dtype), tf.cast(weights, dtype)
    if axis is None or x.shape.rank == weights.shape.rank:
        return tf.reduce_sum(x * weights, axis=axis) / tf.reduce_sum(weights, axis=axis)
    axis = axis % x.shape.rank
    return tf.tensordot(x, weights, [[axis], [0]]) / tf.reduce_sum(weights)


def count_nonzero(x, axis=None):
    return tf.math.count_nonzero(tensor(x), axis=_axis(axis), dtype="int32")


def nansum(x, axis=None, keepdims=False):
    return sum(nan_to(tensor(x), 0.0), axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    return prod(nan_to(tensor(x), 1.0), axis=axis, keepdims=keepdims)


def _all_nan(x, axis, keepdims):
    return tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)


def nanmax(x, axis=None, keepdims=False):
    x = tensor(x)
    if not x.dtype.is_floating:
        return max(x, axis=axis, keepdims=keepdims)
    out = tf.reduce_max(nan_to(x, -np.inf), axis=_axis(axis), keepdims=keepdims)
    return tf.where(_all_nan(x, axis, keepdims), tf.constant(np.nan, x.dtype), out)


def nanmin(x, axis=None, keepdims=False):
    x = tensor(x)
    if not x.dtype.is_floating:
        return min(x, axis=axis, keepdims=keepdims)
    out = tf.reduce_min(nan_to(x, np.inf), axis=_axis(axis), keepdims=keepdims)
    return tf.where(_all_nan(x, axis, keepdims), tf.constant(np.nan, x.dtype), out)


def nanargmax(x, axis=None, keepdims=False):
    x = tensor(x)
    if not x.dtype.is_floating:
        return argmax(x, axis=axis, keepdims=keepdims)
    out = argmax(nan_to(x, -np.inf), axis=axis, keepdims=keepdims)
    return tf.where(_all_nan(x, axis, keepdims), tf.constant(-1, "int32"), out)


def nanargmin(x, axis=None, keepdims=False):
    x = tensor(x)
    if not x.dtype.is_floating:
        return argmin(x, axis=axis, keepdims=keepdims)
    out = argmin(nan_to(x, np.inf), axis=axis, keepdims=keepdims)
    return tf.where(_all_nan(x, axis, keepdims), tf.constant(-1, "int32"), out)


def nanmean(x, axis=None, keepdims=False):
    x = tensor(x)
    if not x.dtype.is_floating:
        return mean(x, axis=axis, keepdims=keepdims)
    valid = tf.cast(tf.logical_not(tf.math.is_nan(x)), x.dtype)
    total = tf.reduce_sum(nan_to(x, 0.0), axis=_axis(axis), keepdims=keepdims)
    return total / tf.reduce_sum(valid, axis=_axis(axis), keepdims=keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = tensor(x)
    x = tf.cast(x, result_type(dt(x), float))
    if not x.dtype.is_floating:
        return var(x, axis=axis, keepdims=keepdims)
    center = nanmean(x, axis=axis, keepdims=True)
    valid = tf.logical_not(tf.math.is_nan(x))
    sq = tf.where(valid, tf.square(x - center), tf.zeros_like(x))
    count = tf.reduce_sum(tf.cast(valid, x.dtype), axis=_axis(axis), keepdims=keepdims)
    return tf.reduce_sum(sq, axis=_axis(axis), keepdims=keepdims) / count


def nanstd(x, axis=None, keepdims=False):
    return tf.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


def ptp(x, axis=None, keepdims=False):
    x = tensor(x)
    return max(x, axis=axis, keepdims=keepdims) - min(x, axis=axis, keepdims=keepdims)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise NotImplementedError(
            "bincount(sparse=True) is not supported on the tensorflow backend: mb ops return "
            "dense tensors. Call it with sparse=False."
        )
    x = tensor(x)
    if dt(x) not in ("int32", "int64"):
        x = tf.cast(x, "int32")
    if weights is None:
        dtype = "int32"
    else:
        weights = tensor(weights)
        dtype = result_type(dt(x), dt(weights))
        if dt(weights) not in ("int32", "int64", "float32", "float64"):
            weights = tf.cast(weights, "int32" if weights.dtype.is_integer else "float32")
    out = tf.math.bincount(x, weights=weights, minlength=minlength, axis=-1)
    return tf.cast(out, dtype)


def histogram(x, bins=10, range=None):
    x = tensor(x)
    if range is None:
        lo, hi = tf.reduce_min(x), tf.reduce_max(x)
    else:
        lo, hi = range
    lo, hi = tf.cast(lo, x.dtype), tf.cast(hi, x.dtype)
    x = tf.boolean_mask(x, (x >= lo) & (x <= hi))
    edges = tf.cast(tf.linspace(tf.cast(lo, "float64"), tf.cast(hi, "float64"), bins + 1), x.dtype)
    idx = tf.searchsorted(edges[1:-1], x, side="right", out_type="int32")
    counts = tf.math.bincount(idx, minlength=bins, maxlength=bins, dtype=x.dtype)
    return counts, edges


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = tensor(y)
    dtype = result_type(dt(y), float)
    y = tf.experimental.numpy.moveaxis(tf.cast(y, dtype), axis, -1)
    if x is None:
        spacing = tf.cast(dx, dtype)
    else:
        x = tf.cast(tensor(x), dtype)
        if x.shape.rank == 1:
            spacing = x[1:] - x[:-1]
        else:
            spacing = diff(tf.experimental.numpy.moveaxis(x, axis, -1), axis=-1)
    return tf.reduce_sum((y[..., 1:] + y[..., :-1]) * spacing / 2.0, axis=-1)
