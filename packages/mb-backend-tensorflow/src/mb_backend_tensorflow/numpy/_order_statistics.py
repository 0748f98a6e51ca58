"""Order statistics: sorting, partitioning, medians, quantiles and percentiles."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._dtypes import result_type
from mb_backend_tensorflow.numpy._common import axes_tuple, dt, tensor
from mb_backend_tensorflow.numpy._indexing import _sortable

# ----- quantiles ------------------------------------------------------------------

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(x, q, axis, method, keepdims, ignore_nan):
    if method not in _METHODS:
        raise ValueError(f"quantile got method={method!r}. Expected one of {_METHODS}.")
    x = tensor(x)
    x = tf.cast(x, result_type(dt(x), float))
    q = tf.cast(tensor(q), "float64")
    ndim = x.shape.rank
    axes = axes_tuple(axis, ndim)
    others = [i for i in range(ndim) if i not in axes]
    y = tf.transpose(x, others + list(axes))
    lead = tf.shape(y)[: len(others)]
    y = tf.reshape(y, tf.concat([lead, [-1]], axis=0))
    nan = tf.math.is_nan(y)
    # NaNs sort last (as +inf) so the valid values lead each row.
    y_sorted = tf.sort(tf.where(nan, tf.constant(np.inf, y.dtype), y), axis=-1)
    if ignore_nan:
        n = tf.reduce_sum(tf.cast(tf.logical_not(nan), "float64"), axis=-1)
    else:
        n = tf.fill(tf.shape(y)[:-1], tf.cast(tf.shape(y)[-1], "float64"))
    q_flat = tf.reshape(q, [-1])
    pos = (tf.expand_dims(n, -1) - 1.0) * q_flat  # [..., k]
    last = tf.maximum(tf.cast(tf.expand_dims(n, -1), "int32") - 1, 0)

    def take(idx):
        idx = tf.clip_by_value(tf.cast(idx, "int32"), 0, last)
        return tf.gather(y_sorted, idx, axis=-1, batch_dims=len(others))

    if method == "lower":
        out = take(tf.floor(pos))
    elif method == "higher":
        out = take(tf.math.ceil(pos))
    elif method == "nearest":
        out = take(tf.round(pos))
    elif method == "midpoint":
        out = (take(tf.floor(pos)) + take(tf.math.ceil(pos))) / 2
    else:
        lo, hi = take(tf.floor(pos)), take(tf.math.ceil(pos))
        frac = tf.cast(pos - tf.floor(pos), y.dtype)
        out = lo + (hi - lo) * frac
    if ignore_nan:
        out = tf.where(tf.expand_dims(n, -1) == 0, tf.constant(np.nan, out.dtype), out)
    else:
        out = tf.where(
            tf.reduce_any(nan, axis=-1, keepdims=True), tf.constant(np.nan, out.dtype), out
        )
    # [..., k] -> [k, ...]
    out = tf.transpose(out, [out.shape.rank - 1, *range(out.shape.rank - 1)])
    if keepdims:
        out_shape = tf.concat(
            [tf.shape(q_flat), [1 if i in axes else tf.shape(x)[i] for i in range(ndim)]], 0
        )
        out = tf.reshape(out, out_shape)
    else:
        out = tf.reshape(out, tf.concat([tf.shape(q_flat), lead], 0))
    if q.shape.rank == 0:
        out = tf.squeeze(out, 0)
    return out


def quantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(x, q, axis, method, keepdims, ignore_nan=False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(x, q, axis, method, keepdims, ignore_nan=True)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, tf.cast(tensor(q), "float64") / 100.0, axis, method, keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return nanquantile(x, tf.cast(tensor(q), "float64") / 100.0, axis, method, keepdims)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanmedian(x, axis=None, keepdims=False):
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def sort(x, axis=-1):
    x = tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.shape.rank == 0:
        return x
    return tf.cast(tf.sort(_sortable(x), axis=axis), x.dtype)


def argsort(x, axis=-1):
    x = tensor(x)
    if x.shape.rank == 0:
        return tf.constant([0], "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.argsort(_sortable(x), axis=axis, stable=True)


def argpartition(x, kth, axis=-1):
    # Any order with the kth element in place is valid; a full stable sort is one.
    return argsort(x, axis=axis)
