"""Element-wise ops: arithmetic, powers, logs, trigonometry, rounding, comparisons, logic, bits."""

import math as pymath

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._dtypes import floatx, result_type
from mb_backend_tensorflow.numpy._common import (
    dt,
    promote,
    promote_float,
    tensor,
    to_float,
    unary_float_dtype,
)

_UINT_NARROW = ("uint8", "uint16", "uint32")


def _via(dtype, compute):
    """Run ``compute`` in a dtype TF has kernels for, then cast back to ``dtype``."""
    if dtype == "bool":
        return "int32"
    if dtype in ("uint8", "uint16"):
        return "int32"
    if dtype == "uint32":
        return "int64"
    if dtype in ("int8", "int16"):
        return "int32"
    return compute or dtype


def add(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        return tf.logical_or(x1, x2)
    return tf.add(x1, x2)


def subtract(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        raise TypeError(
            "subtract does not accept two bool tensors (as in NumPy). Use logical_xor, or "
            "cast to an int dtype first."
        )
    return tf.subtract(x1, x2)


def multiply(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        return tf.logical_and(x1, x2)
    return tf.multiply(x1, x2)


def divide(x1, x2):
    (x1, x2), _ = promote_float(x1, x2)
    return tf.divide(x1, x2)


def true_divide(x1, x2):
    return divide(x1, x2)


def divide_no_nan(x1, x2):
    (x1, x2), _ = promote_float(x1, x2)
    return tf.math.divide_no_nan(x1, x2)


def floor_divide(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    compute = _via(dtype, None)
    if compute != dtype:
        return tf.cast(tf.math.floordiv(tf.cast(x1, compute), tf.cast(x2, compute)), dtype)
    return tf.math.floordiv(x1, x2)


def mod(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        dtype = "int32"
    compute = _via(dtype, None)
    out = tf.math.floormod(tf.cast(x1, compute), tf.cast(x2, compute))
    return tf.cast(out, dtype)


def fmod(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        dtype = "int32"
    compute = _via(dtype, None)
    x1, x2 = tf.cast(x1, compute), tf.cast(x2, compute)
    if x1.dtype.is_floating:
        out = tf.truncatemod(x1, x2)
    else:
        out = tf.sign(x1) * tf.math.floormod(tf.abs(x1), tf.abs(x2))
    return tf.cast(out, dtype)


def power(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    compute = _via(dtype, None)
    if compute != dtype:
        return tf.cast(tf.pow(tf.cast(x1, compute), tf.cast(x2, compute)), dtype)
    return tf.pow(x1, x2)


def negative(x):
    x = tensor(x)
    if dt(x) == "bool":
        raise TypeError("negative does not accept a bool tensor (as in NumPy); use logical_not.")
    if dt(x).startswith("uint"):
        return tf.cast(-tf.cast(x, "int64"), x.dtype)
    return tf.negative(x)


def absolute(x):
    x = tensor(x)
    if dt(x) == "bool" or dt(x).startswith("uint"):
        return x
    return tf.abs(x)


def abs(x):
    return absolute(x)


def fabs(x):
    x = tensor(x)
    return tf.abs(tf.cast(x, unary_float_dtype(x)))


def sign(x):
    x = tensor(x)
    dtype = dt(x)
    compute = _via(dtype, None)
    if compute != dtype:
        return tf.cast(tf.sign(tf.cast(x, compute)), dtype)
    return tf.sign(x)


def square(x):
    x = tensor(x)
    if dt(x) == "bool":
        x = tf.cast(x, "int32")
    return tf.square(x)


def sqrt(x):
    x = tensor(x)
    return tf.sqrt(tf.cast(x, unary_float_dtype(x)))


def cbrt(x):
    x = tensor(x)
    dtype = dt(x)
    if dtype == "int64":
        x = tf.cast(x, "float64")
    elif dtype not in ("bfloat16", "float16", "float64"):
        x = tf.cast(x, floatx())
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1.0 / 3.0, x.dtype))


def reciprocal(x):
    x = tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, unary_float_dtype(x))
    return tf.math.reciprocal(x)


def maximum(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        return tf.logical_or(x1, x2)
    compute = _via(dtype, None)
    return tf.cast(tf.maximum(tf.cast(x1, compute), tf.cast(x2, compute)), dtype)


def minimum(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        return tf.logical_and(x1, x2)
    compute = _via(dtype, None)
    return tf.cast(tf.minimum(tf.cast(x1, compute), tf.cast(x2, compute)), dtype)


def fmax(x1, x2):
    (x1, x2), _dtype = promote(x1, x2)
    if not x1.dtype.is_floating:
        return maximum(x1, x2)
    out = tf.maximum(x1, x2)
    return tf.where(tf.math.is_nan(x1), x2, tf.where(tf.math.is_nan(x2), x1, out))


def fmin(x1, x2):
    (x1, x2), _dtype = promote(x1, x2)
    if not x1.dtype.is_floating:
        return minimum(x1, x2)
    out = tf.minimum(x1, x2)
    return tf.where(tf.math.is_nan(x1), x2, tf.where(tf.math.is_nan(x2), x1, out))


def clip(x, x_min, x_max):
    x = tensor(x)
    dtype = dt(x)
    if dtype == "bool":
        x, dtype = tf.cast(x, "int32"), "int32"
    out_dtype = result_type(dtype, *(_weak(v) for v in (x_min, x_max)))
    compute = _via(out_dtype, None)
    x = tf.cast(x, compute)
    lo = tf.cast(tensor(x_min), compute)
    hi = tf.cast(tensor(x_max), compute)
    return tf.cast(tf.minimum(tf.maximum(x, lo), hi), out_dtype)


def _weak(v):
    if isinstance(v, bool):
        return bool
    if isinstance(v, int):
        return int
    if isinstance(v, float):
        return float
    return dt(tensor(v))


def heaviside(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype in ("int8", "int16", "int32", "uint8", "uint16", "uint32", "bool"):
        dtype = floatx()
    elif dtype == "int64":
        dtype = "float64"
    x1, x2 = tf.cast(x1, dtype), tf.cast(x2, dtype)
    return tf.where(x1 < 0, tf.zeros_like(x1), tf.where(x1 > 0, tf.ones_like(x1), x2))


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


def ldexp(x1, x2):
    x1, x2 = tensor(x1), tensor(x2)
    if not x2.dtype.is_integer:
        raise TypeError(f"ldexp needs an integer exponent x2. Received x2 of dtype {dt(x2)}.")
    dtype = result_type(dt(x1), dt(x2), float)
    x1 = tf.cast(x1, dtype)
    out = x1 * tf.pow(tf.constant(2.0, x1.dtype), tf.cast(x2, dtype))
    return tf.where(tf.math.is_inf(x1) | (x1 == 0), x1, out)


def nextafter(x1, x2):
    (x1, x2), dtype = promote_float(x1, x2)
    if dtype == "float32":
        return tf.math.nextafter(x1, x2)
    if dtype == "float64":
        return tf.math.nextafter(x1, x2)
    return tf.cast(tf.math.nextafter(tf.cast(x1, "float32"), tf.cast(x2, "float32")), dtype)


def _int_check(name, dtype):
    if not ("int" in dtype or dtype == "bool"):
        raise TypeError(f"{name} needs integer inputs. Received dtype {dtype}.")


def gcd(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    _int_check("gcd", dtype)
    compute = "int64" if dtype in ("uint32", "uint64", "int64") else "int32"
    a, b = tf.abs(tf.cast(x1, compute)), tf.abs(tf.cast(x2, compute))
    shape = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
    a, b = tf.broadcast_to(a, shape), tf.broadcast_to(b, shape)

    def body(a, b):
        nonzero = tf.not_equal(b, 0)
        safe = tf.where(nonzero, b, tf.ones_like(b))
        return tf.where(nonzero, b, a), tf.where(nonzero, tf.math.floormod(a, safe), b)

    a, _ = tf.while_loop(lambda a, b: tf.reduce_any(b != 0), body, (a, b))
    return tf.cast(a, dtype)


def lcm(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    _int_check("lcm", dtype)
    compute = "int64" if dtype in ("uint32", "uint64", "int64") else "int32"
    a, b = tf.abs(tf.cast(x1, compute)), tf.abs(tf.cast(x2, compute))
    g = gcd(a, b)
    safe = tf.where(g == 0, tf.ones_like(g), g)
    return tf.cast(tf.where(g == 0, tf.zeros_like(g), a * (b // safe)), dtype)


def floor(x):
    x = tensor(x)
    return tf.floor(tf.cast(x, unary_float_dtype(x)))


def ceil(x):
    x = tensor(x)
    return tf.math.ceil(tf.cast(x, unary_float_dtype(x)))


def trunc(x):
    x = tensor(x)
    if not x.dtype.is_floating:
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x))


def round(x, decimals=0):
    x = tensor(x)
    dtype = x.dtype
    if decimals == 0:
        if dtype.is_integer or dtype.is_bool:
            return x
        return tf.round(x)
    if dtype.is_integer:
        if decimals > 0:
            return x
        factor = tf.constant(pymath.pow(10, decimals), floatx())
        y = tf.round(tf.cast(x, floatx()) * factor) / factor
        return tf.cast(y, dtype)
    factor = tf.constant(np.power(10.0, decimals), dtype)
    return tf.round(x * factor) / factor


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = tensor(x)
    if not x.dtype.is_floating:
        return x
    info_max = x.dtype.max if posinf is None else posinf
    info_min = x.dtype.min if neginf is None else neginf
    x = tf.where(tf.math.is_nan(x), tf.constant(nan, x.dtype), x)
    x = tf.where(tf.math.is_inf(x) & (x > 0), tf.constant(info_max, x.dtype), x)
    return tf.where(tf.math.is_inf(x) & (x < 0), tf.constant(info_min, x.dtype), x)


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


def angle(x):
    x = tensor(x)
    if x.dtype.is_complex:
        return tf.math.angle(x)
    x = to_float(x)
    return tf.where(x < 0, tf.constant(pymath.pi, x.dtype), tf.zeros_like(x))


def real(x):
    x = tensor(x)
    return tf.math.real(x) if x.dtype.is_complex else x


def imag(x):
    x = tensor(x)
    return tf.math.imag(x) if x.dtype.is_complex else tf.zeros_like(x)


def conjugate(x):
    x = tensor(x)
    return tf.math.conj(x) if x.dtype.is_complex else x


def conj(x):
    return conjugate(x)
