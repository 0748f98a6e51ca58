"""Scans along an axis: cumulative sums and products (and their NaN-ignoring forms) and
their inverse, ``diff``."""

import tensorflow as tf

from mb_backend_tensorflow.numpy._common import canonical_axis, dt, nan_to, tensor


def _flatten_axis(x, axis):
    if axis is None:
        return tf.reshape(x, [-1]), 0
    return x, axis


def _cumulative(name, tf_fn):
    """``tf_fn`` (``tf.math.cumsum``/``cumprod``) along ``axis`` (None: of the flattened
    tensor), bools counted as int32."""

    def cumulative(x, axis=None, dtype=None):
        x = tensor(x, dtype)
        if dt(x) == "bool":
            x = tf.cast(x, "int32")
        x, axis = _flatten_axis(x, axis)
        return tf_fn(x, axis=axis)

    cumulative.__name__ = cumulative.__qualname__ = name
    return cumulative


cumsum = _cumulative("cumsum", tf.math.cumsum)
cumprod = _cumulative("cumprod", tf.math.cumprod)


def nancumsum(x, axis=None, dtype=None):
    return cumsum(nan_to(tensor(x), 0.0), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    return cumprod(nan_to(tensor(x), 1.0), axis=axis, dtype=dtype)


def diff(a, n=1, axis=-1):
    a = tensor(a)
    axis = canonical_axis(axis, a.shape.rank)
    for _ in range(n):
        head = tf.gather(a, tf.range(1, tf.shape(a)[axis]), axis=axis)
        tail = tf.gather(a, tf.range(0, tf.shape(a)[axis] - 1), axis=axis)
        a = tf.math.not_equal(head, tail) if a.dtype.is_bool else head - tail
    return a
