"""Element-wise logic: comparisons, closeness, float classification, logical and bitwise
ops."""

import tensorflow as tf

from mb_backend_tensorflow._dtypes import result_type
from mb_backend_tensorflow.numpy._common import dt, promote, tensor


def _compare(fn, x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool" and fn not in (tf.equal, tf.not_equal):
        x1, x2 = tf.cast(x1, "int32"), tf.cast(x2, "int32")
    return fn(x1, x2)


def equal(x1, x2):
    return _compare(tf.equal, x1, x2)


def not_equal(x1, x2):
    return _compare(tf.not_equal, x1, x2)


def less(x1, x2):
    return _compare(tf.less, x1, x2)


def less_equal(x1, x2):
    return _compare(tf.less_equal, x1, x2)


def greater(x1, x2):
    return _compare(tf.greater, x1, x2)


def greater_equal(x1, x2):
    return _compare(tf.greater_equal, x1, x2)


def _bool(x):
    return tf.cast(tensor(x), "bool")


def logical_and(x1, x2):
    return tf.logical_and(_bool(x1), _bool(x2))


def logical_or(x1, x2):
    return tf.logical_or(_bool(x1), _bool(x2))


def logical_xor(x1, x2):
    return tf.math.logical_xor(_bool(x1), _bool(x2))


def logical_not(x):
    return tf.logical_not(_bool(x))


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    (x1, x2), _dtype = promote(x1, x2)
    if not (x1.dtype.is_floating or x1.dtype.is_complex):
        return tf.equal(x1, x2)
    close = tf.abs(x1 - x2) <= tf.cast(atol, x1.dtype.real_dtype) + tf.cast(
        rtol, x1.dtype.real_dtype
    ) * tf.abs(x2)
    # Infinities are close only to themselves.
    both_inf = tf.math.is_inf(x1) & tf.math.is_inf(x2) if x1.dtype.is_floating else None
    if both_inf is not None:
        close = tf.where(tf.math.is_inf(x1) | tf.math.is_inf(x2), tf.equal(x1, x2), close)
    if equal_nan and x1.dtype.is_floating:
        close = close | (tf.math.is_nan(x1) & tf.math.is_nan(x2))
    return close


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return tf.reduce_all(isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isfinite(x):
    x = tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return tf.ones_like(x, dtype="bool")
    if x.dtype.is_complex:
        return tf.math.is_finite(tf.math.real(x)) & tf.math.is_finite(tf.math.imag(x))
    return tf.math.is_finite(x)


def isinf(x):
    x = tensor(x)
    if not x.dtype.is_floating:
        return tf.zeros_like(x, dtype="bool")
    return tf.math.is_inf(x)


def isnan(x):
    x = tensor(x)
    if not x.dtype.is_floating:
        return tf.zeros_like(x, dtype="bool")
    return tf.math.is_nan(x)


def isneginf(x):
    x = tensor(x)
    if not x.dtype.is_floating:
        return tf.zeros_like(x, dtype="bool")
    return tf.math.is_inf(x) & (x < 0)


def isposinf(x):
    x = tensor(x)
    if not x.dtype.is_floating:
        return tf.zeros_like(x, dtype="bool")
    return tf.math.is_inf(x) & (x > 0)


def isreal(x):
    x = tensor(x)
    if x.dtype.is_complex:
        return tf.equal(tf.math.imag(x), 0)
    return tf.ones_like(x, dtype="bool")


def signbit(x):
    x = tensor(x)
    if x.dtype.is_bool:
        return tf.zeros_like(x, dtype="bool")
    if x.dtype.is_unsigned:
        return tf.zeros_like(x, dtype="bool")
    if x.dtype.is_integer:
        return x < 0
    # -0.0 and -nan have the sign bit set: read it through the bits.
    bits = {"float16": "int16", "bfloat16": "int16", "float32": "int32", "float64": "int64"}
    return tf.bitcast(x, bits[dt(x)]) < 0


def _bitwise_prep(x, y):
    (x, y), dtype = promote(x, y)
    return x, y, dtype


def bitwise_and(x, y):
    x, y, dtype = _bitwise_prep(x, y)
    return tf.logical_and(x, y) if dtype == "bool" else tf.bitwise.bitwise_and(x, y)


def bitwise_or(x, y):
    x, y, dtype = _bitwise_prep(x, y)
    return tf.logical_or(x, y) if dtype == "bool" else tf.bitwise.bitwise_or(x, y)


def bitwise_xor(x, y):
    x, y, dtype = _bitwise_prep(x, y)
    return tf.math.logical_xor(x, y) if dtype == "bool" else tf.bitwise.bitwise_xor(x, y)


def bitwise_invert(x):
    x = tensor(x)
    return tf.logical_not(x) if x.dtype.is_bool else tf.bitwise.invert(x)


def bitwise_not(x):
    return bitwise_invert(x)


def _shift_prep(x, y):
    x = tensor(x)
    if isinstance(y, int) and not isinstance(y, bool):
        y = tf.cast(y, x.dtype)
        return x, y, dt(x)
    y = tensor(y)
    dtype = result_type(dt(x), dt(y))
    return tf.cast(x, dtype), tf.cast(y, dtype), dtype


def bitwise_left_shift(x, y):
    x, y, _ = _shift_prep(x, y)
    return tf.bitwise.left_shift(x, y)


def left_shift(x, y):
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    x, y, _ = _shift_prep(x, y)
    return tf.bitwise.right_shift(x, y)


def right_shift(x, y):
    return bitwise_right_shift(x, y)
