"""Element-wise transcendental functions: exponentials, logarithms, trigonometric and
hyperbolic functions and their inverses, angle conversion, ``sinc`` and ``i0``."""

import math as pymath

import tensorflow as tf

from mb_backend_tensorflow._dtypes import floatx
from mb_backend_tensorflow.numpy._common import dt, promote, promote_float, tensor, to_float


def hypot(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype in ("int8", "int16", "int32", "uint8", "uint16", "uint32", "bool"):
        dtype = floatx()
    elif dtype == "int64":
        dtype = "float64"
    a, b = tf.abs(tf.cast(x1, dtype)), tf.abs(tf.cast(x2, dtype))
    big, small = tf.maximum(a, b), tf.minimum(a, b)
    ratio = tf.math.divide_no_nan(small, big)
    return big * tf.sqrt(1.0 + tf.square(ratio))


def logaddexp(x1, x2):
    (x1, x2), _ = promote_float(x1, x2)
    delta = x1 - x2
    out = tf.maximum(x1, x2) + tf.math.log1p(tf.exp(-tf.abs(delta)))
    return tf.where(tf.math.is_nan(delta), x1 + x2, out)


def logaddexp2(x1, x2):
    (x1, x2), _ = promote_float(x1, x2)
    delta = x1 - x2
    ln2 = tf.constant(pymath.log(2.0), x1.dtype)
    out = (
        tf.maximum(x1, x2) + tf.math.log1p(tf.pow(tf.constant(2.0, x1.dtype), -tf.abs(delta))) / ln2
    )
    return tf.where(tf.math.is_nan(delta), x1 + x2, out)


def _int_to_floatx(x):
    """Keras's rule for exp-like functions: ints and bools become floatx."""
    x = tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, floatx())
    return x


def exp(x):
    return tf.exp(_int_to_floatx(x))


def exp2(x):
    x = _int_to_floatx(x)
    return tf.pow(tf.constant(2.0, x.dtype), x)


def expm1(x):
    return tf.math.expm1(_int_to_floatx(x))


def log(x):
    x = tensor(x)
    if dt(x) == "int64":
        return tf.math.log(tf.cast(x, floatx()))
    return tf.math.log(to_float(x))


def log10(x):
    x = to_float(x)
    return tf.math.log(x) / tf.math.log(tf.constant(10.0, x.dtype))


def log2(x):
    x = to_float(x)
    return tf.math.log(x) / tf.math.log(tf.constant(2.0, x.dtype))


def log1p(x):
    return tf.math.log1p(to_float(x))


def sin(x):
    return tf.sin(to_float(x))


def cos(x):
    return tf.cos(to_float(x))


def tan(x):
    return tf.tan(to_float(x))


def arcsin(x):
    return tf.asin(to_float(x))


def arccos(x):
    return tf.acos(to_float(x))


def arctan(x):
    return tf.atan(to_float(x))


def arctan2(x1, x2):
    (x1, x2), _ = promote_float(x1, x2)
    return tf.atan2(x1, x2)


def sinh(x):
    return tf.sinh(to_float(x))


def cosh(x):
    return tf.cosh(to_float(x))


def tanh(x):
    return tf.tanh(to_float(x))


def arcsinh(x):
    return tf.asinh(to_float(x))


def arccosh(x):
    return tf.acosh(to_float(x))


def arctanh(x):
    return tf.atanh(to_float(x))


def deg2rad(x):
    x = to_float(x)
    return x * tf.constant(pymath.pi / 180.0, x.dtype)


def rad2deg(x):
    x = to_float(x)
    return x * tf.constant(180.0 / pymath.pi, x.dtype)


def sinc(x):
    x = to_float(x)
    pi_x = x * tf.constant(pymath.pi, x.dtype)
    safe = tf.where(x == 0, tf.ones_like(x), pi_x)
    return tf.where(x == 0, tf.ones_like(x), tf.sin(safe) / safe)


def i0(x):
    return tf.math.bessel_i0(to_float(x))
