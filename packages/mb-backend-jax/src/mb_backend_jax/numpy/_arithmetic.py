"""Element-wise arithmetic: the four operations, powers and roots, signs and absolute
values, extremes, rounding, clipping, integer and float-bit
helpers (complex parts are in ``_complex.py``)."""

import jax.numpy as jnp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_backend_jax.numpy._common import binary, int64_to_floatx, int_to_floatx, to_float, unary
from mb_ops import config, dtypes

# Arithmetic.
add = binary(jnp.add, "add")
subtract = binary(jnp.subtract, "subtract")
multiply = binary(jnp.multiply, "multiply")
divide = binary(jnp.divide, "divide")
true_divide = binary(jnp.true_divide, "true_divide")
floor_divide = binary(jnp.floor_divide, "floor_divide")
mod = binary(jnp.mod, "mod")
fmod = binary(jnp.fmod, "fmod")
power = binary(jnp.power, "power")
maximum = binary(jnp.maximum, "maximum")
minimum = binary(jnp.minimum, "minimum")
fmax = binary(jnp.fmax, "fmax")
fmin = binary(jnp.fmin, "fmin")
heaviside = binary(jnp.heaviside, "heaviside")
gcd = binary(jnp.gcd, "gcd")
lcm = binary(jnp.lcm, "lcm")
nextafter = binary(jnp.nextafter, "nextafter")

# Unary arithmetic.
absolute = unary(jnp.absolute, "absolute")
abs = unary(jnp.absolute, "abs")
fabs = unary(jnp.fabs, "fabs")
negative = unary(jnp.negative, "negative")
square = unary(jnp.square, "square")
sign = unary(jnp.sign, "sign")
reciprocal = unary(jnp.reciprocal, "reciprocal")
cbrt = unary(jnp.cbrt, "cbrt", int_to_floatx)
ceil = unary(jnp.ceil, "ceil", to_float)
floor = unary(jnp.floor, "floor", to_float)
sqrt = unary(jnp.sqrt, "sqrt", int64_to_floatx)


def divide_no_nan(x1, x2):
    """``x1 / x2`` with 0 wherever ``x2 == 0``."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    safe = jnp.where(x2 == 0, 1, x2)
    return jnp.where(x2 == 0, 0, jnp.divide(x1, safe))


def ldexp(x1, x2):
    """``x1 * 2**x2``; ``x2`` must hold integers."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    if dtypes.standardize_dtype(x2.dtype) not in dtypes.INT_TYPES:
        raise TypeError(
            f"ldexp expects an integer exponent x2. Received x2 of dtype {x2.dtype}; "
            "cast it to an int dtype first."
        )
    return jnp.ldexp(x1, x2)


def clip(x, x_min, x_max):
    """``x`` limited to ``[x_min, x_max]`` (bools are clipped as int32)."""
    x = convert_to_tensor(x)
    if dtypes.standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    return jnp.clip(x, x_min, x_max)


def round(x, decimals=0):
    """``x`` rounded to ``decimals`` places (negative decimals work on ints)."""
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    if "int" in dtype and decimals < 0:
        factor = cast(10.0**decimals, config.floatx())
        rounded = jnp.round(cast(x, config.floatx()) * factor) / factor
        return cast(rounded, dtype)
    return jnp.round(x, decimals=decimals)


def trunc(x):
    """``x`` rounded toward zero (ints and bools are returned as they are)."""
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return x
    return jnp.trunc(x)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """``x`` with NaN and infinities replaced by finite numbers."""
    return jnp.nan_to_num(convert_to_tensor(x), nan=nan, posinf=posinf, neginf=neginf)
