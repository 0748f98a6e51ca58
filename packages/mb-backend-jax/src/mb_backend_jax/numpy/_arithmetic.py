"""Element-wise ops: arithmetic, powers, logs, trigonometry, rounding, comparisons, logic, bits."""

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
hypot = binary(jnp.hypot, "hypot")
gcd = binary(jnp.gcd, "gcd")
lcm = binary(jnp.lcm, "lcm")
nextafter = binary(jnp.nextafter, "nextafter")
arctan2 = binary(jnp.arctan2, "arctan2", float_result=True)
logaddexp = binary(jnp.logaddexp, "logaddexp", float_result=True)
logaddexp2 = binary(jnp.logaddexp2, "logaddexp2", float_result=True)

# Comparisons and logic.
equal = binary(jnp.equal, "equal")
not_equal = binary(jnp.not_equal, "not_equal")
less = binary(jnp.less, "less")
less_equal = binary(jnp.less_equal, "less_equal")
greater = binary(jnp.greater, "greater")
greater_equal = binary(jnp.greater_equal, "greater_equal")
logical_and = binary(jnp.logical_and, "logical_and")
logical_or = binary(jnp.logical_or, "logical_or")
logical_xor = binary(jnp.logical_xor, "logical_xor")
logical_not = unary(jnp.logical_not, "logical_not")

# Unary arithmetic.
absolute = unary(jnp.absolute, "absolute")
abs = unary(jnp.absolute, "abs")
fabs = unary(jnp.fabs, "fabs")
negative = unary(jnp.negative, "negative")
square = unary(jnp.square, "square")
sign = unary(jnp.sign, "sign")
signbit = unary(jnp.signbit, "signbit")
reciprocal = unary(jnp.reciprocal, "reciprocal")
conjugate = unary(jnp.conjugate, "conjugate")
conj = unary(jnp.conjugate, "conj")
real = unary(jnp.real, "real")
imag = unary(jnp.imag, "imag")
cbrt = unary(jnp.cbrt, "cbrt", int_to_floatx)
deg2rad = unary(jnp.deg2rad, "deg2rad", int_to_floatx)
rad2deg = unary(jnp.rad2deg, "rad2deg", int_to_floatx)
isfinite = unary(jnp.isfinite, "isfinite")
isinf = unary(jnp.isinf, "isinf")
isnan = unary(jnp.isnan, "isnan")
isneginf = unary(jnp.isneginf, "isneginf")
isposinf = unary(jnp.isposinf, "isposinf")
isreal = unary(jnp.isreal, "isreal")

# Float-valued functions: ints and bools go to floatx, floats keep their width.
sin = unary(jnp.sin, "sin", to_float)
cos = unary(jnp.cos, "cos", to_float)
tan = unary(jnp.tan, "tan", to_float)
arcsin = unary(jnp.arcsin, "arcsin", to_float)
arccos = unary(jnp.arccos, "arccos", to_float)
arctan = unary(jnp.arctan, "arctan", to_float)
sinh = unary(jnp.sinh, "sinh", to_float)
cosh = unary(jnp.cosh, "cosh", to_float)
tanh = unary(jnp.tanh, "tanh", to_float)
arcsinh = unary(jnp.arcsinh, "arcsinh", to_float)
arccosh = unary(jnp.arccosh, "arccosh", to_float)
arctanh = unary(jnp.arctanh, "arctanh", to_float)
sinc = unary(jnp.sinc, "sinc", to_float)
angle = unary(jnp.angle, "angle", to_float)
ceil = unary(jnp.ceil, "ceil", to_float)
floor = unary(jnp.floor, "floor", to_float)
exp = unary(jnp.exp, "exp", int_to_floatx)
exp2 = unary(jnp.exp2, "exp2", int_to_floatx)
expm1 = unary(jnp.expm1, "expm1", int_to_floatx)
log = unary(jnp.log, "log", int64_to_floatx)
log10 = unary(jnp.log10, "log10", int64_to_floatx)
log1p = unary(jnp.log1p, "log1p", int64_to_floatx)
log2 = unary(jnp.log2, "log2", int64_to_floatx)
sqrt = unary(jnp.sqrt, "sqrt", int64_to_floatx)


def bitwise_and(x, y):
    """Element-wise bitwise AND."""
    return jnp.bitwise_and(convert_to_tensor(x), convert_to_tensor(y))


def bitwise_or(x, y):
    """Element-wise bitwise OR."""
    return jnp.bitwise_or(convert_to_tensor(x), convert_to_tensor(y))


def bitwise_xor(x, y):
    """Element-wise bitwise XOR."""
    return jnp.bitwise_xor(convert_to_tensor(x), convert_to_tensor(y))


def bitwise_invert(x):
    """Element-wise bitwise NOT."""
    return jnp.invert(convert_to_tensor(x))


def bitwise_not(x):
    """Element-wise bitwise NOT (alias of ``bitwise_invert``)."""
    return bitwise_invert(x)


def bitwise_left_shift(x, y):
    """``x << y`` element-wise."""
    return jnp.left_shift(convert_to_tensor(x), y if isinstance(y, int) else convert_to_tensor(y))


def left_shift(x, y):
    """``x << y`` element-wise."""
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    """``x >> y`` element-wise."""
    return jnp.right_shift(convert_to_tensor(x), y if isinstance(y, int) else convert_to_tensor(y))


def right_shift(x, y):
    """``x >> y`` element-wise."""
    return bitwise_right_shift(x, y)


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


def i0(x):
    """The modified Bessel function of the first kind, order 0."""
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    if dtype in ("int64", "float64"):
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16"):
        dtype = config.floatx()
    return jnp.i0(cast(x, dtype))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """``x`` with NaN and infinities replaced by finite numbers."""
    return jnp.nan_to_num(convert_to_tensor(x), nan=nan, posinf=posinf, neginf=neginf)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|x1 - x2| <= atol + rtol * |x2|``."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    return jnp.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``isclose`` holds everywhere (a scalar bool tensor)."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    return jnp.allclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)
