"""Element-wise arithmetic: the four operations, powers and roots, signs and absolute
values, extremes, rounding, clipping, integer and float-bit
helpers (complex parts are in ``_complex.py``)."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import INT_TYPES, result_type, standardize_dtype
from mb_backend_numpy.numpy._common import (
    binary,
    cast,
    float_unary,
    int_input_to_float,
    promote,
    quiet,
    small_int_to_float,
)

add = binary(np.add, warns=False)
subtract = binary(np.subtract, warns=False)
multiply = binary(np.multiply, warns=False)
divide = binary(np.divide, extra=(float,))
maximum = binary(np.maximum, warns=False)
minimum = binary(np.minimum, warns=False)
fmax = binary(np.fmax, warns=False)
fmin = binary(np.fmin, warns=False)
floor_divide = binary(np.floor_divide)
power = binary(np.power)
sqrt = float_unary(np.sqrt)
ceil = float_unary(np.ceil)
floor = float_unary(np.floor)


def true_divide(x1, x2):
    return divide(x1, x2)


@quiet
def divide_no_nan(x1, x2):
    """``x1 / x2``, with 0 wherever ``x2`` is 0."""
    (x1, x2), dtype = promote(x1, x2, extra=(float,))
    return np.where(x2 == 0, cast(0, dtype), np.divide(x1, x2))


@quiet
def mod(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        x1, x2 = x1.astype("int32"), x2.astype("int32")
    return np.mod(x1, x2)


@quiet
def fmod(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        x1, x2 = x1.astype("int32"), x2.astype("int32")
    return np.fmod(x1, x2)


def fabs(x):
    return np.fabs(int_input_to_float(x))


def cbrt(x):
    x = to_tensor(x)
    return cast(np.cbrt(x), small_int_to_float(standardize_dtype(x.dtype)))


def heaviside(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.heaviside(x1, x2), small_int_to_float(dtype))


def nextafter(x1, x2):
    (x1, x2), dtype = promote(x1, x2, extra=(float,))
    return cast(np.nextafter(x1, x2), dtype)


def ldexp(x1, x2):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if standardize_dtype(x2.dtype) not in INT_TYPES:
        raise TypeError(
            f"ldexp expects an integer exponent `x2`. Received: x2 dtype={x2.dtype}. "
            "Cast it, e.g. ops.cast(x2, 'int32')."
        )
    dtype = result_type(x1.dtype, x2.dtype, float)
    compute = "float32" if dtype == "bfloat16" else dtype
    return cast(np.ldexp(cast(x1, compute), x2), dtype)


def gcd(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.gcd(x1, x2), dtype)


def lcm(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.lcm(x1, x2), dtype)


def absolute(x):
    return np.absolute(to_tensor(x))


def abs(x):
    return absolute(x)


def negative(x):
    return np.negative(to_tensor(x))


def sign(x):
    return np.sign(to_tensor(x))


def square(x):
    x = to_tensor(x)
    if x.dtype == np.bool_:
        x = x.astype("int32")
    return np.square(x)


@quiet
def reciprocal(x):
    return np.reciprocal(to_tensor(x))


def round(x, decimals=0):
    return np.round(to_tensor(x), decimals=decimals)


def trunc(x):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return x
    return np.trunc(x)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    return np.nan_to_num(to_tensor(x), nan=nan, posinf=posinf, neginf=neginf)


def clip(x, x_min, x_max):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if dtype == "bool":
        dtype = "int32"
    return cast(np.clip(x, to_tensor(x_min), to_tensor(x_max)), dtype)
