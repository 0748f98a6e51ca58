"""Activation functions and softmax-like normalizations."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx


def _float(x):
    x = convert_to_tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, floatx())
    return x


def relu(x):
    return tf.nn.relu(_float(x))


def relu6(x):
    return tf.nn.relu6(_float(x))


def sigmoid(x):
    return tf.sigmoid(_float(x))


def sparse_sigmoid(x):
    x = _float(x)
    return tf.clip_by_value(0.5 * (x + 1.0), 0.0, 1.0)


def tanh(x):
    return tf.tanh(_float(x))


def tanh_shrink(x):
    x = _float(x)
    return x - tf.tanh(x)


def softplus(x):
    return tf.math.softplus(_float(x))


def softsign(x):
    return tf.nn.softsign(_float(x))


def soft_shrink(x, threshold=0.5):
    x = _float(x)
    t = tf.cast(threshold, x.dtype)
    return tf.where(x > t, x - t, tf.where(x < -t, x + t, tf.zeros_like(x)))


def sparse_plus(x):
    x = _float(x)
    return tf.where(x <= -1.0, tf.zeros_like(x), tf.where(x >= 1.0, x, tf.square(x + 1.0) / 4.0))


def silu(x):
    return tf.nn.silu(_float(x))


def squareplus(x, b=4):
    x = _float(x)
    return (x + tf.sqrt(tf.square(x) + tf.cast(b, x.dtype))) / 2.0


def log_sigmoid(x):
    return tf.math.log_sigmoid(_float(x))


def leaky_relu(x, negative_slope=0.2):
    return tf.nn.leaky_relu(_float(x), alpha=negative_slope)


def hard_sigmoid(x):
    x = _float(x)
    return tf.nn.relu6(x + 3.0) / 6.0


def hard_silu(x):
    x = _float(x)
    return x * hard_sigmoid(x)


def elu(x, alpha=1.0):
    x = _float(x)
    out = tf.nn.elu(x)
    return out if alpha == 1.0 else tf.where(x > 0, x, tf.cast(alpha, x.dtype) * out)


def selu(x):
    return tf.nn.selu(_float(x))


def gelu(x, approximate=True):
    return tf.nn.gelu(_float(x), approximate=approximate)


def celu(x, alpha=1.0):
    x = _float(x)
    a = tf.cast(alpha, x.dtype)
    zero = tf.zeros_like(x)
    return tf.maximum(x, zero) + tf.minimum(zero, a * tf.math.expm1(x / a))


def glu(x, axis=-1):
    x = _float(x)
    if x.shape[axis] is not None and x.shape[axis] % 2:
        raise ValueError(
            f"glu needs an even size along axis {axis}. Received shape {x.shape.as_list()}."
        )
    a, b = tf.split(x, 2, axis=axis)
    return a * tf.sigmoid(b)


def hard_tanh(x):
    return tf.clip_by_value(_float(x), -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    x = _float(x)
    return tf.where(tf.abs(x) > tf.cast(threshold, x.dtype), x, tf.zeros_like(x))


def threshold(x, threshold, default_value):
    x = _float(x)
    return tf.where(x > tf.cast(threshold, x.dtype), x, tf.cast(default_value, x.dtype))


def _over_axes(fn, x, axis):
    """Apply an axis=-1 normalization over ``axis`` (None: all axes; tuple: several)."""
    if isinstance(axis, int):
        return fn(x, axis=axis)
    rank = x.shape.rank
    axes = list(range(rank)) if axis is None else sorted(a % rank for a in axis)
    rest = [i for i in range(rank) if i not in axes]
    moved = tf.transpose(x, rest + axes)
    shape = tf.shape(moved)
    flat = tf.reshape(moved, tf.concat([shape[: len(rest)], [-1]], 0))
    out = tf.reshape(fn(flat, axis=-1), shape)
    inverse = [0] * rank
    for i, p in enumerate(rest + axes):
        inverse[p] = i
    return tf.transpose(out, inverse)


def softmax(x, axis=-1):
    return _over_axes(tf.nn.softmax, _float(x), axis)


def log_softmax(x, axis=-1):
    return _over_axes(tf.nn.log_softmax, _float(x), axis)


def _sparsemax_last(x, axis=-1):
    z = tf.sort(x, direction="DESCENDING", axis=-1)
    cumsum = tf.cumsum(z, axis=-1)
    k = tf.range(1, tf.shape(x)[-1] + 1, dtype=x.dtype)
    support = z - (cumsum - 1.0) / k > 0
    k_z = tf.reduce_sum(tf.cast(support, x.dtype), axis=-1, keepdims=True)
    tau = (tf.reduce_sum(tf.where(support, z, tf.zeros_like(z)), -1, keepdims=True) - 1.0) / k_z
    return tf.maximum(x - tau, 0.0)


def sparsemax(x, axis=-1):
    x = _float(x)
    rank = x.shape.rank
    if axis == -1 or axis == rank - 1:
        return _sparsemax_last(x)
    moved = tf.experimental.numpy.moveaxis(x, axis, -1)
    return tf.experimental.numpy.moveaxis(_sparsemax_last(moved), -1, axis)
