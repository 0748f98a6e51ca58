"""Element-wise numpy ops: arithmetic, comparisons, logic, bits, math functions."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import broadcast_shapes, dtype_of, like, shape_of, std_dtype, tensor
from mb_ops._ops._specs import (
    binary,
    binary_bool,
    binary_bool_to_int,
    binary_first_dtype,
    binary_float,
    unary_bool,
    unary_bool_to_int,
    unary_float,
    unary_real,
    unary_same,
)

# ----- arithmetic ---------------------------------------------------------------------


@op(binary)
def add(x1, x2):
    """Add arguments element-wise (with broadcasting)."""


@op(binary)
def subtract(x1, x2):
    """Subtract arguments element-wise."""


@op(binary)
def multiply(x1, x2):
    """Multiply arguments element-wise."""


@op(binary_float)
def divide(x1, x2):
    """Divide arguments element-wise (true division: ints give floats)."""


@op(binary_float)
def true_divide(x1, x2):
    """Alias of ``divide``."""


@op(binary_float)
def divide_no_nan(x1, x2):
    """Safe element-wise division: 0 where the denominator is 0."""


@op(binary_bool_to_int)
def floor_divide(x1, x2):
    """Largest integer smaller or equal to the division of the inputs."""


@op(binary_bool_to_int)
def mod(x1, x2):
    """Element-wise remainder of division."""


@op(binary_bool_to_int)
def fmod(x1, x2):
    """Element-wise remainder with the sign of the dividend."""


def _power_spec(op_name: str, x1: Any, x2: Any) -> Any:
    return binary(op_name, x1, x2)


@op(_power_spec)
def power(x1, x2):
    """First tensor elements raised to powers from the second, element-wise."""


@op(unary_bool_to_int)
def negative(x):
    """Numerical negative, element-wise."""


@op(unary_real)
def abs(x):
    """Absolute value, element-wise."""


@op(unary_real)
def absolute(x):
    """Alias of ``abs``."""


@op(unary_real)
def fabs(x):
    """Absolute value, element-wise (floats)."""


@op(unary_bool_to_int)
def square(x):
    """Element-wise square."""


@op(unary_float)
def sqrt(x):
    """Element-wise square root."""


@op(unary_float)
def cbrt(x):
    """Element-wise cube root."""


@op(unary_float)
def reciprocal(x):
    """Element-wise reciprocal ``1 / x``."""


@op(unary_bool_to_int)
def sign(x):
    """Element-wise sign (-1, 0 or 1)."""


@op(binary)
def maximum(x1, x2):
    """Element-wise maximum."""


@op(binary)
def minimum(x1, x2):
    """Element-wise minimum."""


@op(binary)
def fmax(x1, x2):
    """Element-wise maximum, ignoring NaNs."""


@op(binary)
def fmin(x1, x2):
    """Element-wise minimum, ignoring NaNs."""


@op(binary_float)
def hypot(x1, x2):
    """Element-wise ``sqrt(x1**2 + x2**2)``."""


@op(binary_float)
def logaddexp(x1, x2):
    """``log(exp(x1) + exp(x2))``, element-wise."""


@op(binary_float)
def logaddexp2(x1, x2):
    """``log2(2**x1 + 2**x2)``, element-wise."""


@op(binary_float)
def heaviside(x1, x2):
    """Heaviside step function."""


@op(binary_float)
def nextafter(x1, x2):
    """Next floating-point value after ``x1`` towards ``x2``."""


@op(binary_first_dtype)
def ldexp(x1, x2):
    """``x1 * 2**x2``, element-wise."""


@op(binary_bool_to_int)
def gcd(x1, x2):
    """Greatest common divisor, element-wise."""


@op(binary_bool_to_int)
def lcm(x1, x2):
    """Least common multiple, element-wise."""


@op(binary_float)
def arctan2(x1, x2):
    """Element-wise arc tangent of ``x1/x2`` choosing the quadrant."""


def _clip_spec(op_name: str, x: Any, x_min: Any, x_max: Any) -> Any:
    dtype = std_dtype(x)
    return like(x, "int32" if dtype == "bool" else dtype)


@op(_clip_spec)
def clip(x, x_min, x_max):
    """Clip (limit) the values of a tensor."""


def _round_spec(op_name: str, x: Any, decimals: Any = 0) -> Any:
    return like(x)


@op(_round_spec)
def round(x, decimals=0):
    """Evenly round to the given number of decimals."""


def _nan_to_num_spec(op_name: str, x: Any, *_: Any) -> Any:
    return like(x)


@op(_nan_to_num_spec)
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """Replace NaN with ``nan`` and infinities with large finite numbers."""


# ----- math functions -----------------------------------------------------------------


@op(unary_float)
def exp(x):
    """Element-wise exponential."""


@op(unary_float)
def exp2(x):
    """Element-wise base-2 exponential."""


@op(unary_float)
def expm1(x):
    """``exp(x) - 1``, element-wise."""


@op(unary_float)
def log(x):
    """Natural logarithm, element-wise."""


@op(unary_float)
def log10(x):
    """Base-10 logarithm, element-wise."""


@op(unary_float)
def log1p(x):
    """``log(1 + x)``, element-wise."""


@op(unary_float)
def log2(x):
    """Base-2 logarithm, element-wise."""


@op(unary_float)
def sin(x):
    """Trigonometric sine, element-wise."""


@op(unary_float)
def cos(x):
    """Cosine, element-wise."""


@op(unary_float)
def tan(x):
    """Tangent, element-wise."""


@op(unary_float)
def arcsin(x):
    """Inverse sine, element-wise."""


@op(unary_float)
def arccos(x):
    """Inverse cosine, element-wise."""


@op(unary_float)
def arctan(x):
    """Inverse tangent, element-wise."""


@op(unary_float)
def sinh(x):
    """Hyperbolic sine, element-wise."""


@op(unary_float)
def cosh(x):
    """Hyperbolic cosine, element-wise."""


@op(unary_float)
def tanh(x):
    """Hyperbolic tangent, element-wise."""


@op(unary_float)
def arcsinh(x):
    """Inverse hyperbolic sine, element-wise."""


@op(unary_float)
def arccosh(x):
    """Inverse hyperbolic cosine, element-wise."""


@op(unary_float)
def arctanh(x):
    """Inverse hyperbolic tangent, element-wise."""


@op(unary_float)
def deg2rad(x):
    """Convert angles from degrees to radians."""


@op(unary_float)
def rad2deg(x):
    """Convert angles from radians to degrees."""


@op(unary_float)
def sinc(x):
    """Normalized sinc function ``sin(pi x) / (pi x)``."""


@op(unary_float)
def i0(x):
    """Modified Bessel function of the first kind, order 0."""


@op(unary_bool_to_int)
def ceil(x):
    """Ceiling of the input, element-wise."""


@op(unary_bool_to_int)
def floor(x):
    """Floor of the input, element-wise."""


@op(unary_bool_to_int)
def trunc(x):
    """Truncated value of the input, element-wise."""


@op(unary_real)
def angle(x):
    """Angle of a complex argument, element-wise."""


@op(unary_same)
def conj(x):
    """Complex conjugate, element-wise."""


@op(unary_same)
def conjugate(x):
    """Alias of ``conj``."""


@op(unary_real)
def real(x):
    """Real part, element-wise."""


@op(unary_real)
def imag(x):
    """Imaginary part, element-wise."""


# ----- comparisons and predicates -----------------------------------------------------


@op(binary_bool)
def equal(x1, x2):
    """``x1 == x2``, element-wise."""


@op(binary_bool)
def not_equal(x1, x2):
    """``x1 != x2``, element-wise."""


@op(binary_bool)
def less(x1, x2):
    """``x1 < x2``, element-wise."""


@op(binary_bool)
def less_equal(x1, x2):
    """``x1 <= x2``, element-wise."""


@op(binary_bool)
def greater(x1, x2):
    """``x1 > x2``, element-wise."""


@op(binary_bool)
def greater_equal(x1, x2):
    """``x1 >= x2``, element-wise."""


def _isclose_spec(op_name: str, x1: Any, x2: Any, *_: Any) -> Any:
    return binary_bool(op_name, x1, x2)


@op(_isclose_spec)
def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether two tensors are element-wise close within a tolerance."""


def _allclose_spec(op_name: str, x1: Any, x2: Any, *_: Any) -> Any:
    broadcast_shapes(op_name, shape_of(x1), shape_of(x2))
    return tensor((), "bool")


@op(_allclose_spec)
def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether all elements of two tensors are close within a tolerance."""


@op(unary_bool)
def isfinite(x):
    """Whether each element is finite."""


@op(unary_bool)
def isinf(x):
    """Whether each element is positive or negative infinity."""


@op(unary_bool)
def isnan(x):
    """Whether each element is NaN."""


@op(unary_bool)
def isneginf(x):
    """Whether each element is negative infinity."""


@op(unary_bool)
def isposinf(x):
    """Whether each element is positive infinity."""


@op(unary_bool)
def isreal(x):
    """Whether each element is real (zero imaginary part)."""


@op(unary_bool)
def signbit(x):
    """Whether the sign bit is set, element-wise."""


# ----- logic and bits -----------------------------------------------------------------


@op(binary_bool)
def logical_and(x1, x2):
    """Element-wise logical AND."""


@op(binary_bool)
def logical_or(x1, x2):
    """Element-wise logical OR."""


@op(binary_bool)
def logical_xor(x1, x2):
    """Element-wise logical XOR."""


@op(unary_bool)
def logical_not(x):
    """Element-wise logical NOT."""


def _bitwise_spec(op_name: str, x: Any, y: Any) -> Any:
    shape = broadcast_shapes(op_name, shape_of(x), shape_of(y))
    return tensor(shape, _dtypes.result_type(dtype_of(x), dtype_of(y)))


@op(_bitwise_spec)
def bitwise_and(x, y):
    """Bit-wise AND, element-wise."""


@op(_bitwise_spec)
def bitwise_or(x, y):
    """Bit-wise OR, element-wise."""


@op(_bitwise_spec)
def bitwise_xor(x, y):
    """Bit-wise XOR, element-wise."""


@op(_bitwise_spec)
def bitwise_left_shift(x, y):
    """Shift the bits of ``x`` to the left by ``y``."""


@op(_bitwise_spec)
def bitwise_right_shift(x, y):
    """Shift the bits of ``x`` to the right by ``y``."""


@op(_bitwise_spec)
def left_shift(x, y):
    """Alias of ``bitwise_left_shift``."""


@op(_bitwise_spec)
def right_shift(x, y):
    """Alias of ``bitwise_right_shift``."""


@op(unary_same)
def bitwise_invert(x):
    """Bit-wise NOT, element-wise."""


@op(unary_same)
def bitwise_not(x):
    """Alias of ``bitwise_invert``."""
