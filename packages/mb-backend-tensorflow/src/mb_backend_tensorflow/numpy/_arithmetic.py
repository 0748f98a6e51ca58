"""Element-wise arithmetic: the four operations, powers and roots, signs and absolute
values, extremes, rounding, clipping, integer and float-bit
helpers (complex parts are in ``_complex.py``)."""

import math as pymath

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._dtypes import floatx, result_type
from mb_backend_tensorflow.numpy._common import (
    dt,
    promote,
    promote_float,
    tensor,
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


def _extremum(name, tf_fn, on_bools):
    """Element-wise ``tf_fn`` (``tf.maximum``/``tf.minimum``) of the promoted operands,
    ``on_bools`` (``tf.logical_or``/``tf.logical_and``) for bools."""

    def extremum(x1, x2):
        (x1, x2), dtype = promote(x1, x2)
        if dtype == "bool":
            return on_bools(x1, x2)
        compute = _via(dtype, None)
        return tf.cast(tf_fn(tf.cast(x1, compute), tf.cast(x2, compute)), dtype)

    extremum.__name__ = extremum.__qualname__ = name
    return extremum


maximum = _extremum("maximum", tf.maximum, tf.logical_or)
minimum = _extremum("minimum", tf.minimum, tf.logical_and)


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
