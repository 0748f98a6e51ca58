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
    """Add arguments element-wise (with broadcasting).

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 + x2``, broadcast, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([10, 20, 30])
    >>> ops.convert_to_numpy(ops.add(x, y)).tolist()
    [11, 22, 33]
    >>> ops.convert_to_numpy(ops.add(x, 1)).tolist()
    [2, 3, 4]
    """


@op(binary)
def subtract(x1, x2):
    """Subtract arguments element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 - x2``, broadcast, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([10, 20, 30])
    >>> y = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.subtract(x, y)).tolist()
    [9, 18, 27]
    """


@op(binary)
def multiply(x1, x2):
    """Multiply arguments element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 * x2``, broadcast, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.5, 2.0, -3.0])
    >>> ops.convert_to_numpy(ops.multiply(x, 2.0)).tolist()
    [3.0, 4.0, -6.0]
    """


@op(binary_float)
def divide(x1, x2):
    """Divide arguments element-wise (true division: ints give floats).

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 / x2``, broadcast; integer inputs give floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.divide(x, 2)).tolist()
    [0.5, 1.0, 1.5]
    """


@op(binary_float)
def true_divide(x1, x2):
    """Alias of ``divide``.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 / x2``, as ``divide``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.true_divide(x, 2)).tolist()
    [0.5, 1.0, 1.5]
    """


@op(binary_float)
def divide_no_nan(x1, x2):
    """Safe element-wise division: 0 where the denominator is 0.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 / x2``, with 0 wherever ``x2`` is 0.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0])
    >>> y = ops.convert_to_tensor([0.0, 4.0, 2.0])
    >>> ops.convert_to_numpy(ops.divide_no_nan(x, y)).tolist()
    [0.0, 0.5, 1.5]
    """


@op(binary_bool_to_int)
def floor_divide(x1, x2):
    """Largest integer smaller or equal to the division of the inputs.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``floor(x1 / x2)``; bool inputs give ints.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([7, -7, 6])
    >>> ops.convert_to_numpy(ops.floor_divide(x, 2)).tolist()
    [3, -4, 3]
    """


@op(binary_bool_to_int)
def mod(x1, x2):
    """Element-wise remainder of division.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``x1 % x2``, with the sign of the divisor ``x2`` (as Python's ``%``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([7, -7, 6])
    >>> ops.convert_to_numpy(ops.mod(x, 3)).tolist()
    [1, 2, 0]
    """


@op(binary_bool_to_int)
def fmod(x1, x2):
    """Element-wise remainder with the sign of the dividend.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        The remainder of ``x1 / x2`` truncated towards zero, with the sign of ``x1``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([7, -7, 6])
    >>> ops.convert_to_numpy(ops.fmod(x, 3)).tolist()
    [1, -1, 0]
    """


def _power_spec(op_name: str, x1: Any, x2: Any) -> Any:
    return binary(op_name, x1, x2)


@op(_power_spec)
def power(x1, x2):
    """First tensor elements raised to powers from the second, element-wise.

    Args:
        x1: the bases.
        x2: the exponents, broadcastable with `x1`.

    Returns:
        ``x1 ** x2``, broadcast.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.power(x, 2)).tolist()
    [1, 4, 9]
    >>> ops.convert_to_numpy(ops.power(2.0, ops.convert_to_tensor([0.0, 3.0, -1.0]))).tolist()
    [1.0, 8.0, 0.5]
    """


@op(unary_bool_to_int)
def negative(x):
    """Numerical negative, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``-x``; bool inputs give ints.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, -2, 3])
    >>> ops.convert_to_numpy(ops.negative(x)).tolist()
    [-1, 2, -3]
    """


@op(unary_real)
def abs(x):
    """Absolute value, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``|x|``; for complex inputs, the magnitude (a real tensor).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.abs(x)).tolist()
    [1.5, 0.0, 2.0]
    """


@op(unary_real)
def absolute(x):
    """Alias of ``abs``.

    Args:
        x: a tensor.

    Returns:
        ``|x|``, as ``abs``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-3, 0, 2])
    >>> ops.convert_to_numpy(ops.absolute(x)).tolist()
    [3, 0, 2]
    """


@op(unary_real)
def fabs(x):
    """Absolute value, element-wise (floats).

    Args:
        x: a tensor.

    Returns:
        ``|x|``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.fabs(x)).tolist()
    [1.5, 0.0, 2.0]
    """


@op(unary_bool_to_int)
def square(x):
    """Element-wise square.

    Args:
        x: a tensor.

    Returns:
        ``x * x``; bool inputs give ints.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2, 0, 3])
    >>> ops.convert_to_numpy(ops.square(x)).tolist()
    [4, 0, 9]
    """


@op(unary_float)
def sqrt(x):
    """Element-wise square root.

    Args:
        x: a tensor.

    Returns:
        The non-negative square roots, as floats (NaN for negative inputs).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 4.0, 9.0])
    >>> ops.convert_to_numpy(ops.sqrt(x)).tolist()
    [1.0, 2.0, 3.0]
    """


@op(unary_float)
def cbrt(x):
    """Element-wise cube root.

    Args:
        x: a tensor.

    Returns:
        The real cube roots, as floats (negative for negative inputs).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([8.0, -27.0, 0.0])
    >>> ops.convert_to_numpy(ops.cbrt(x)).astype("float64").round(4).tolist()
    [2.0, -3.0, 0.0]
    """


@op(unary_float)
def reciprocal(x):
    """Element-wise reciprocal ``1 / x``.

    Args:
        x: a tensor.

    Returns:
        ``1 / x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 4.0])
    >>> ops.convert_to_numpy(ops.reciprocal(x)).tolist()
    [1.0, 0.5, 0.25]
    """


@op(unary_bool_to_int)
def sign(x):
    """Element-wise sign (-1, 0 or 1).

    Args:
        x: a tensor.

    Returns:
        -1 where ``x < 0``, 0 where ``x == 0``, 1 where ``x > 0``, in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-3, 0, 2])
    >>> ops.convert_to_numpy(ops.sign(x)).tolist()
    [-1, 0, 1]
    """


@op(binary)
def maximum(x1, x2):
    """Element-wise maximum.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        The larger of ``x1`` and ``x2`` at each position (NaN if either is NaN).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 5, 3])
    >>> y = ops.convert_to_tensor([4, 2, 3])
    >>> ops.convert_to_numpy(ops.maximum(x, y)).tolist()
    [4, 5, 3]
    >>> ops.convert_to_numpy(ops.maximum(x, 2)).tolist()
    [2, 5, 3]
    """


@op(binary)
def minimum(x1, x2):
    """Element-wise minimum.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        The smaller of ``x1`` and ``x2`` at each position (NaN if either is NaN).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 5, 3])
    >>> y = ops.convert_to_tensor([4, 2, 3])
    >>> ops.convert_to_numpy(ops.minimum(x, y)).tolist()
    [1, 2, 3]
    """


@op(binary)
def fmax(x1, x2):
    """Element-wise maximum, ignoring NaNs.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        The larger of ``x1`` and ``x2``; where one is NaN, the other.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 5.0])
    >>> y = ops.convert_to_tensor([3.0, 2.0, 4.0])
    >>> ops.convert_to_numpy(ops.fmax(x, y)).tolist()
    [3.0, 2.0, 5.0]
    """


@op(binary)
def fmin(x1, x2):
    """Element-wise minimum, ignoring NaNs.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        The smaller of ``x1`` and ``x2``; where one is NaN, the other.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 5.0])
    >>> y = ops.convert_to_tensor([3.0, 2.0, 4.0])
    >>> ops.convert_to_numpy(ops.fmin(x, y)).tolist()
    [1.0, 2.0, 4.0]
    """


@op(binary_float)
def hypot(x1, x2):
    """Element-wise ``sqrt(x1**2 + x2**2)``.

    Args:
        x1: one leg of the right triangles.
        x2: the other leg, broadcastable with `x1`.

    Returns:
        The hypotenuses ``sqrt(x1**2 + x2**2)``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([3.0, 5.0])
    >>> y = ops.convert_to_tensor([4.0, 12.0])
    >>> ops.convert_to_numpy(ops.hypot(x, y)).astype("float64").round(4).tolist()
    [5.0, 13.0]
    """


@op(binary_float)
def logaddexp(x1, x2):
    """``log(exp(x1) + exp(x2))``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``log(exp(x1) + exp(x2))``, computed without overflow, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.logaddexp(x, x)).astype("float64").round(4).tolist()
    [0.6931, 1.6931]
    """


@op(binary_float)
def logaddexp2(x1, x2):
    """``log2(2**x1 + 2**x2)``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``log2(2**x1 + 2**x2)``, computed without overflow, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> y = ops.convert_to_tensor([0.0, 3.0])
    >>> ops.convert_to_numpy(ops.logaddexp2(x, y)).astype("float64").round(4).tolist()
    [1.0, 3.3219]
    """


@op(binary_float)
def heaviside(x1, x2):
    """Heaviside step function.

    Args:
        x1: the input values.
        x2: the value at ``x1 == 0``, broadcastable with `x1`.

    Returns:
        0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1 where ``x1 > 0``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.heaviside(x, 0.5)).tolist()
    [0.0, 0.5, 1.0]
    """


@op(binary_float)
def nextafter(x1, x2):
    """Next floating-point value after ``x1`` towards ``x2``.

    Args:
        x1: the float start values.
        x2: the directions, broadcastable with `x1`.

    Returns:
        The floating-point values adjacent to ``x1`` in the direction of ``x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0])
    >>> ops.convert_to_numpy(ops.subtract(ops.nextafter(x, 2.0), x)).tolist()  # 2**-23
    [1.1920928955078125e-07]
    """


@op(binary_first_dtype)
def ldexp(x1, x2):
    """``x1 * 2**x2``, element-wise.

    Args:
        x1: the mantissas.
        x2: integer exponents, broadcastable with `x1`.

    Returns:
        ``x1 * 2**x2``, in ``x1``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 3.0, 8.0])
    >>> y = ops.convert_to_tensor([2, 1, -3])
    >>> ops.convert_to_numpy(ops.ldexp(x, y)).tolist()
    [4.0, 6.0, 1.0]
    """


@op(binary_bool_to_int)
def gcd(x1, x2):
    """Greatest common divisor, element-wise.

    Args:
        x1: an integer tensor.
        x2: an integer tensor broadcastable with `x1`.

    Returns:
        The greatest common divisors of ``|x1|`` and ``|x2|``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([12, 18, 7])
    >>> y = ops.convert_to_tensor([8, 27, 5])
    >>> ops.convert_to_numpy(ops.gcd(x, y)).tolist()
    [4, 9, 1]
    """


@op(binary_bool_to_int)
def lcm(x1, x2):
    """Least common multiple, element-wise.

    Args:
        x1: an integer tensor.
        x2: an integer tensor broadcastable with `x1`.

    Returns:
        The least common multiples of ``|x1|`` and ``|x2|``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([4, 3, 6])
    >>> y = ops.convert_to_tensor([6, 5, 3])
    >>> ops.convert_to_numpy(ops.lcm(x, y)).tolist()
    [12, 15, 6]
    """


@op(binary_float)
def arctan2(x1, x2):
    """Element-wise arc tangent of ``x1/x2`` choosing the quadrant.

    Args:
        x1: the y-coordinates.
        x2: the x-coordinates, broadcastable with `x1`.

    Returns:
        The angles in radians, in ``[-pi, pi]``, of the points ``(x2, x1)``.

    Example:

    >>> from mb_ops import ops
    >>> y = ops.convert_to_tensor([1.0, 1.0, -1.0])
    >>> x = ops.convert_to_tensor([1.0, -1.0, 0.0])
    >>> ops.convert_to_numpy(ops.arctan2(y, x)).astype("float64").round(4).tolist()
    [0.7854, 2.3562, -1.5708]
    """


def _clip_spec(op_name: str, x: Any, x_min: Any, x_max: Any) -> Any:
    dtype = std_dtype(x)
    return like(x, "int32" if dtype == "bool" else dtype)


@op(_clip_spec)
def clip(x, x_min, x_max):
    """Clip (limit) the values of a tensor.

    Args:
        x: a tensor.
        x_min: the lower bound.
        x_max: the upper bound.

    Returns:
        ``x`` with values below ``x_min`` set to ``x_min`` and above ``x_max`` to ``x_max``; bool
        inputs give ints.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2, 0, 3, 9])
    >>> ops.convert_to_numpy(ops.clip(x, 0, 5)).tolist()
    [0, 0, 3, 5]
    """


def _round_spec(op_name: str, x: Any, decimals: Any = 0) -> Any:
    return like(x)


@op(_round_spec)
def round(x, decimals=0):
    """Evenly round to the given number of decimals.

    Args:
        x: a tensor.
        decimals: the number of decimals to keep (may be negative).

    Returns:
        ``x`` rounded to ``decimals`` decimals, halves to the nearest even value.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.5, 1.5, 2.5, 3.25])
    >>> ops.convert_to_numpy(ops.round(x)).tolist()
    [0.0, 2.0, 2.0, 3.0]
    """


def _nan_to_num_spec(op_name: str, x: Any, *_: Any) -> Any:
    return like(x)


@op(_nan_to_num_spec)
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """Replace NaN with ``nan`` and infinities with large finite numbers.

    Args:
        x: a tensor.
        nan: the value for NaNs.
        posinf: the value for positive infinity; None: the dtype's largest finite value.
        neginf: the value for negative infinity; None: the dtype's most negative finite value.

    Returns:
        ``x`` with NaNs and infinities replaced.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([float('nan'), 1.0, float('inf'), -float('inf')])
    >>> ops.convert_to_numpy(ops.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0)).tolist()
    [0.0, 1.0, 9.0, -9.0]
    """


# ----- math functions -----------------------------------------------------------------


@op(unary_float)
def exp(x):
    """Element-wise exponential.

    Args:
        x: a tensor.

    Returns:
        ``e**x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0, -1.0])
    >>> ops.convert_to_numpy(ops.exp(x)).astype("float64").round(4).tolist()
    [1.0, 2.7183, 0.3679]
    """


@op(unary_float)
def exp2(x):
    """Element-wise base-2 exponential.

    Args:
        x: a tensor.

    Returns:
        ``2**x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 3.0, -1.0])
    >>> ops.convert_to_numpy(ops.exp2(x)).astype("float64").round(4).tolist()
    [1.0, 8.0, 0.5]
    """


@op(unary_float)
def expm1(x):
    """``exp(x) - 1``, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``exp(x) - 1``, accurate for small ``x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.expm1(x)).astype("float64").round(4).tolist()
    [0.0, 1.7183]
    """


@op(unary_float)
def log(x):
    """Natural logarithm, element-wise.

    Args:
        x: a tensor.

    Returns:
        The natural logarithms, as floats (-inf at 0, NaN below).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 0.5])
    >>> ops.convert_to_numpy(ops.log(x)).astype("float64").round(4).tolist()
    [0.0, 0.6931, -0.6931]
    """


@op(unary_float)
def log10(x):
    """Base-10 logarithm, element-wise.

    Args:
        x: a tensor.

    Returns:
        The base-10 logarithms, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 10.0, 100.0])
    >>> ops.convert_to_numpy(ops.log10(x)).astype("float64").round(4).tolist()
    [0.0, 1.0, 2.0]
    """


@op(unary_float)
def log1p(x):
    """``log(1 + x)``, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``log(1 + x)``, accurate for small ``x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.log1p(x)).astype("float64").round(4).tolist()
    [0.0, 0.6931]
    """


@op(unary_float)
def log2(x):
    """Base-2 logarithm, element-wise.

    Args:
        x: a tensor.

    Returns:
        The base-2 logarithms, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 8.0, 0.5])
    >>> ops.convert_to_numpy(ops.log2(x)).astype("float64").round(4).tolist()
    [0.0, 3.0, -1.0]
    """


@op(unary_float)
def sin(x):
    """Trigonometric sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The sines of ``x`` (in radians), as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 6, math.pi / 2])
    >>> ops.convert_to_numpy(ops.sin(x)).astype("float64").round(4).tolist()
    [0.0, 0.5, 1.0]
    """


@op(unary_float)
def cos(x):
    """Cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The cosines of ``x`` (in radians), as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 3])
    >>> ops.convert_to_numpy(ops.cos(x)).astype("float64").round(4).tolist()
    [1.0, 0.5]
    """


@op(unary_float)
def tan(x):
    """Tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        The tangents of ``x`` (in radians), as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 4])
    >>> ops.convert_to_numpy(ops.tan(x)).astype("float64").round(4).tolist()
    [0.0, 1.0]
    """


@op(unary_float)
def arcsin(x):
    """Inverse sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The angles in radians, in ``[-pi/2, pi/2]``, whose sines are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 0.5, 1.0])
    >>> ops.convert_to_numpy(ops.arcsin(x)).astype("float64").round(4).tolist()
    [0.0, 0.5236, 1.5708]
    """


@op(unary_float)
def arccos(x):
    """Inverse cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The angles in radians, in ``[0, pi]``, whose cosines are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 0.5, 0.0])
    >>> ops.convert_to_numpy(ops.arccos(x)).astype("float64").round(4).tolist()
    [0.0, 1.0472, 1.5708]
    """


@op(unary_float)
def arctan(x):
    """Inverse tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        The angles in radians, in ``(-pi/2, pi/2)``, whose tangents are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.arctan(x)).astype("float64").round(4).tolist()
    [0.0, 0.7854]
    """


@op(unary_float)
def sinh(x):
    """Hyperbolic sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``(exp(x) - exp(-x)) / 2``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.sinh(x)).astype("float64").round(4).tolist()
    [0.0, 1.1752]
    """


@op(unary_float)
def cosh(x):
    """Hyperbolic cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``(exp(x) + exp(-x)) / 2``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.cosh(x)).astype("float64").round(4).tolist()
    [1.0, 1.5431]
    """


@op(unary_float)
def tanh(x):
    """Hyperbolic tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``sinh(x) / cosh(x)``, in ``(-1, 1)``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0, -1.0])
    >>> ops.convert_to_numpy(ops.tanh(x)).astype("float64").round(4).tolist()
    [0.0, 0.7616, -0.7616]
    """


@op(unary_float)
def arcsinh(x):
    """Inverse hyperbolic sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The values whose hyperbolic sines are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.arcsinh(x)).astype("float64").round(4).tolist()
    [0.0, 0.8814]
    """


@op(unary_float)
def arccosh(x):
    """Inverse hyperbolic cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The values (``>= 0``) whose hyperbolic cosines are ``x`` (``x >= 1``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0])
    >>> ops.convert_to_numpy(ops.arccosh(x)).astype("float64").round(4).tolist()
    [0.0, 1.317]
    """


@op(unary_float)
def arctanh(x):
    """Inverse hyperbolic tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        The values whose hyperbolic tangents are ``x`` (``-1 < x < 1``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 0.5])
    >>> ops.convert_to_numpy(ops.arctanh(x)).astype("float64").round(4).tolist()
    [0.0, 0.5493]
    """


@op(unary_float)
def deg2rad(x):
    """Convert angles from degrees to radians.

    Args:
        x: a tensor.

    Returns:
        ``x * pi / 180``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 90.0, 180.0])
    >>> ops.convert_to_numpy(ops.deg2rad(x)).astype("float64").round(4).tolist()
    [0.0, 1.5708, 3.1416]
    """


@op(unary_float)
def rad2deg(x):
    """Convert angles from radians to degrees.

    Args:
        x: a tensor.

    Returns:
        ``x * 180 / pi``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 2, math.pi])
    >>> ops.convert_to_numpy(ops.rad2deg(x)).astype("float64").round(4).tolist()
    [0.0, 90.0, 180.0]
    """


@op(unary_float)
def sinc(x):
    """Normalized sinc function ``sin(pi x) / (pi x)``.

    Args:
        x: a tensor.

    Returns:
        ``sin(pi x) / (pi x)``, with 1 at ``x == 0``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 0.5])
    >>> ops.convert_to_numpy(ops.sinc(x)).astype("float64").round(4).tolist()
    [1.0, 0.6366]
    """


@op(unary_float)
def i0(x):
    """Modified Bessel function of the first kind, order 0.

    Args:
        x: a tensor.

    Returns:
        ``I0(x)``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.i0(x)).astype("float64").round(4).tolist()
    [1.0, 1.2661]
    """


@op(unary_bool_to_int)
def ceil(x):
    """Ceiling of the input, element-wise.

    Args:
        x: a tensor.

    Returns:
        The smallest integers ``>= x``, in ``x``'s dtype; bool inputs give ints.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.25, 1.5])
    >>> ops.convert_to_numpy(ops.ceil(x)).tolist()
    [-1.0, 1.0, 2.0]
    """


@op(unary_bool_to_int)
def floor(x):
    """Floor of the input, element-wise.

    Args:
        x: a tensor.

    Returns:
        The largest integers ``<= x``, in ``x``'s dtype; bool inputs give ints.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.25, 1.5])
    >>> ops.convert_to_numpy(ops.floor(x)).tolist()
    [-2.0, 0.0, 1.0]
    """


@op(unary_bool_to_int)
def trunc(x):
    """Truncated value of the input, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``x`` with its fractional part dropped (rounded towards zero), in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.25, 1.5])
    >>> ops.convert_to_numpy(ops.trunc(x)).tolist()
    [-1.0, 0.0, 1.0]
    """


@op(unary_real)
def angle(x):
    """Angle of a complex argument, element-wise.

    Args:
        x: a tensor.

    Returns:
        The counterclockwise angles from the positive real axis, in radians, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1 + 1j, -1 + 0j, 2j])
    >>> ops.convert_to_numpy(ops.angle(x)).astype("float64").round(4).tolist()
    [0.7854, 3.1416, 1.5708]
    """


@op(unary_same)
def conj(x):
    """Complex conjugate, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``x`` with the sign of its imaginary part flipped; real inputs are unchanged.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1 + 2j, 3 - 1j])
    >>> ops.convert_to_numpy(ops.conj(x)).tolist()
    [(1-2j), (3+1j)]
    """


@op(unary_same)
def conjugate(x):
    """Alias of ``conj``.

    Args:
        x: a tensor.

    Returns:
        ``x`` with the sign of its imaginary part flipped, as ``conj``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1 + 2j, 3 - 1j])
    >>> ops.convert_to_numpy(ops.conjugate(x)).tolist()
    [(1-2j), (3+1j)]
    """


@op(unary_real)
def real(x):
    """Real part, element-wise.

    Args:
        x: a tensor.

    Returns:
        The real parts, as a real tensor; real inputs are returned unchanged.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1 + 2j, 3 - 1j])
    >>> ops.convert_to_numpy(ops.real(x)).tolist()
    [1.0, 3.0]
    """


@op(unary_real)
def imag(x):
    """Imaginary part, element-wise.

    Args:
        x: a tensor.

    Returns:
        The imaginary parts, as a real tensor; zeros for real inputs.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1 + 2j, 3 - 1j])
    >>> ops.convert_to_numpy(ops.imag(x)).tolist()
    [2.0, -1.0]
    """


# ----- comparisons and predicates -----------------------------------------------------


@op(binary_bool)
def equal(x1, x2):
    """``x1 == x2``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 == x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([3, 2, 1])
    >>> ops.convert_to_numpy(ops.equal(x, y)).tolist()
    [False, True, False]
    >>> ops.convert_to_numpy(ops.equal(x, 2)).tolist()
    [False, True, False]
    """


@op(binary_bool)
def not_equal(x1, x2):
    """``x1 != x2``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 != x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([3, 2, 1])
    >>> ops.convert_to_numpy(ops.not_equal(x, y)).tolist()
    [True, False, True]
    >>> ops.convert_to_numpy(ops.not_equal(x, 2)).tolist()
    [True, False, True]
    """


@op(binary_bool)
def less(x1, x2):
    """``x1 < x2``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 < x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([3, 2, 1])
    >>> ops.convert_to_numpy(ops.less(x, y)).tolist()
    [True, False, False]
    >>> ops.convert_to_numpy(ops.less(x, 2)).tolist()
    [True, False, False]
    """


@op(binary_bool)
def less_equal(x1, x2):
    """``x1 <= x2``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 <= x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([3, 2, 1])
    >>> ops.convert_to_numpy(ops.less_equal(x, y)).tolist()
    [True, True, False]
    >>> ops.convert_to_numpy(ops.less_equal(x, 2)).tolist()
    [True, True, False]
    """


@op(binary_bool)
def greater(x1, x2):
    """``x1 > x2``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 > x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([3, 2, 1])
    >>> ops.convert_to_numpy(ops.greater(x, y)).tolist()
    [False, False, True]
    >>> ops.convert_to_numpy(ops.greater(x, 2)).tolist()
    [False, False, True]
    """


@op(binary_bool)
def greater_equal(x1, x2):
    """``x1 >= x2``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 >= x2``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([3, 2, 1])
    >>> ops.convert_to_numpy(ops.greater_equal(x, y)).tolist()
    [False, True, True]
    >>> ops.convert_to_numpy(ops.greater_equal(x, 2)).tolist()
    [False, True, True]
    """


def _isclose_spec(op_name: str, x1: Any, x2: Any, *_: Any) -> Any:
    return binary_bool(op_name, x1, x2)


@op(_isclose_spec)
def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether two tensors are element-wise close within a tolerance.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.
        rtol: the relative tolerance.
        atol: the absolute tolerance.
        equal_nan: whether NaNs in the same place count as close.

    Returns:
        A bool tensor, true where ``|x1 - x2| <= atol + rtol * |x2|``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 1.0, float('nan')])
    >>> y = ops.convert_to_tensor([1.000001, 1.1, float('nan')])
    >>> ops.convert_to_numpy(ops.isclose(x, y)).tolist()
    [True, False, False]
    >>> ops.convert_to_numpy(ops.isclose(x, y, equal_nan=True)).tolist()
    [True, False, True]
    """


def _allclose_spec(op_name: str, x1: Any, x2: Any, *_: Any) -> Any:
    broadcast_shapes(op_name, shape_of(x1), shape_of(x2))
    return tensor((), "bool")


@op(_allclose_spec)
def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether all elements of two tensors are close within a tolerance.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.
        rtol: the relative tolerance.
        atol: the absolute tolerance.
        equal_nan: whether NaNs in the same place count as close.

    Returns:
        A scalar bool: whether ``isclose`` holds at every position.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0])
    >>> y = ops.convert_to_tensor([1.000001, 2.0])
    >>> ops.convert_to_numpy(ops.allclose(x, y)).tolist()
    True
    >>> y = ops.convert_to_tensor([1.1, 2.0])
    >>> ops.convert_to_numpy(ops.allclose(x, y)).tolist()
    False
    """


@op(unary_bool)
def isfinite(x):
    """Whether each element is finite.

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where ``x`` is neither infinite nor NaN.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('inf'), -float('inf'), float('nan')])
    >>> ops.convert_to_numpy(ops.isfinite(x)).tolist()
    [True, False, False, False]
    """


@op(unary_bool)
def isinf(x):
    """Whether each element is positive or negative infinity.

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where ``x`` is ``inf`` or ``-inf``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('inf'), -float('inf'), float('nan')])
    >>> ops.convert_to_numpy(ops.isinf(x)).tolist()
    [False, True, True, False]
    """


@op(unary_bool)
def isnan(x):
    """Whether each element is NaN.

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where ``x`` is NaN.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('inf'), -float('inf'), float('nan')])
    >>> ops.convert_to_numpy(ops.isnan(x)).tolist()
    [False, False, False, True]
    """


@op(unary_bool)
def isneginf(x):
    """Whether each element is negative infinity.

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where ``x`` is ``-inf``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('inf'), -float('inf'), float('nan')])
    >>> ops.convert_to_numpy(ops.isneginf(x)).tolist()
    [False, False, True, False]
    """


@op(unary_bool)
def isposinf(x):
    """Whether each element is positive infinity.

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where ``x`` is ``inf``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('inf'), -float('inf'), float('nan')])
    >>> ops.convert_to_numpy(ops.isposinf(x)).tolist()
    [False, True, False, False]
    """


@op(unary_bool)
def isreal(x):
    """Whether each element is real (zero imaginary part).

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where the imaginary part is 0 (everywhere for real inputs).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1 + 0j, 1 + 2j])
    >>> ops.convert_to_numpy(ops.isreal(x)).tolist()
    [True, False]
    """


@op(unary_bool)
def signbit(x):
    """Whether the sign bit is set, element-wise.

    Args:
        x: a tensor.

    Returns:
        A bool tensor, true where ``x`` is negative (including ``-0.0``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.signbit(x)).tolist()
    [True, False, False]
    """


# ----- logic and bits -----------------------------------------------------------------


@op(binary_bool)
def logical_and(x1, x2):
    """Element-wise logical AND.

    Args:
        x1: a tensor (nonzero is true).
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 and x2`` (nonzero values count as true).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([True, True, False, False])
    >>> y = ops.convert_to_tensor([True, False, True, False])
    >>> ops.convert_to_numpy(ops.logical_and(x, y)).tolist()
    [True, False, False, False]
    """


@op(binary_bool)
def logical_or(x1, x2):
    """Element-wise logical OR.

    Args:
        x1: a tensor (nonzero is true).
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where ``x1 or x2`` (nonzero values count as true).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([True, True, False, False])
    >>> y = ops.convert_to_tensor([True, False, True, False])
    >>> ops.convert_to_numpy(ops.logical_or(x, y)).tolist()
    [True, True, True, False]
    """


@op(binary_bool)
def logical_xor(x1, x2):
    """Element-wise logical XOR.

    Args:
        x1: a tensor (nonzero is true).
        x2: a tensor broadcastable with `x1`.

    Returns:
        A bool tensor, true where exactly one of ``x1`` and ``x2`` is true (nonzero values count as
        true).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([True, True, False, False])
    >>> y = ops.convert_to_tensor([True, False, True, False])
    >>> ops.convert_to_numpy(ops.logical_xor(x, y)).tolist()
    [False, True, True, False]
    """


@op(unary_bool)
def logical_not(x):
    """Element-wise logical NOT.

    Args:
        x: a tensor (nonzero is true).

    Returns:
        A bool tensor, true where ``x`` is false (zero).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([True, False])
    >>> ops.convert_to_numpy(ops.logical_not(x)).tolist()
    [False, True]
    >>> ops.convert_to_numpy(ops.logical_not(ops.convert_to_tensor([0, 3]))).tolist()
    [True, False]
    """


def _bitwise_spec(op_name: str, x: Any, y: Any) -> Any:
    shape = broadcast_shapes(op_name, shape_of(x), shape_of(y))
    return tensor(shape, _dtypes.result_type(dtype_of(x), dtype_of(y)))


@op(_bitwise_spec)
def bitwise_and(x, y):
    """Bit-wise AND, element-wise.

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with `x`.

    Returns:
        ``x & y``, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([12, 10])  # 0b1100, 0b1010
    >>> y = ops.convert_to_tensor([10, 6])  # 0b1010, 0b0110
    >>> ops.convert_to_numpy(ops.bitwise_and(x, y)).tolist()
    [8, 2]
    """


@op(_bitwise_spec)
def bitwise_or(x, y):
    """Bit-wise OR, element-wise.

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with `x`.

    Returns:
        ``x | y``, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([12, 10])  # 0b1100, 0b1010
    >>> y = ops.convert_to_tensor([10, 6])  # 0b1010, 0b0110
    >>> ops.convert_to_numpy(ops.bitwise_or(x, y)).tolist()
    [14, 14]
    """


@op(_bitwise_spec)
def bitwise_xor(x, y):
    """Bit-wise XOR, element-wise.

    Args:
        x: an integer or bool tensor.
        y: an integer or bool tensor broadcastable with `x`.

    Returns:
        ``x ^ y``, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([12, 10])  # 0b1100, 0b1010
    >>> y = ops.convert_to_tensor([10, 6])  # 0b1010, 0b0110
    >>> ops.convert_to_numpy(ops.bitwise_xor(x, y)).tolist()
    [6, 12]
    """


@op(_bitwise_spec)
def bitwise_left_shift(x, y):
    """Shift the bits of ``x`` to the left by ``y``.

    Args:
        x: an integer tensor.
        y: the shift amounts (non-negative integers), broadcastable with `x`.

    Returns:
        ``x << y``, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 3, 5])
    >>> y = ops.convert_to_tensor([2, 1, 0])
    >>> ops.convert_to_numpy(ops.bitwise_left_shift(x, y)).tolist()
    [4, 6, 5]
    """


@op(_bitwise_spec)
def bitwise_right_shift(x, y):
    """Shift the bits of ``x`` to the right by ``y``.

    Args:
        x: an integer tensor.
        y: the shift amounts (non-negative integers), broadcastable with `x`.

    Returns:
        ``x >> y``, in the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([8, 7, 5])
    >>> y = ops.convert_to_tensor([2, 1, 0])
    >>> ops.convert_to_numpy(ops.bitwise_right_shift(x, y)).tolist()
    [2, 3, 5]
    """


@op(_bitwise_spec)
def left_shift(x, y):
    """Alias of ``bitwise_left_shift``.

    Args:
        x: an integer tensor.
        y: the shift amounts (non-negative integers), broadcastable with `x`.

    Returns:
        ``x << y``, as ``bitwise_left_shift``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 3, 5])
    >>> y = ops.convert_to_tensor([2, 1, 0])
    >>> ops.convert_to_numpy(ops.left_shift(x, y)).tolist()
    [4, 6, 5]
    """


@op(_bitwise_spec)
def right_shift(x, y):
    """Alias of ``bitwise_right_shift``.

    Args:
        x: an integer tensor.
        y: the shift amounts (non-negative integers), broadcastable with `x`.

    Returns:
        ``x >> y``, as ``bitwise_right_shift``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([8, 7, 5])
    >>> y = ops.convert_to_tensor([2, 1, 0])
    >>> ops.convert_to_numpy(ops.right_shift(x, y)).tolist()
    [2, 3, 5]
    """


@op(unary_same)
def bitwise_invert(x):
    """Bit-wise NOT, element-wise.

    Args:
        x: an integer or bool tensor.

    Returns:
        ``~x`` (``-x - 1`` for signed integers; ``not x`` for bools).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0, 5, -1])
    >>> ops.convert_to_numpy(ops.bitwise_invert(x)).tolist()
    [-1, -6, 0]
    """


@op(unary_same)
def bitwise_not(x):
    """Alias of ``bitwise_invert``.

    Args:
        x: an integer or bool tensor.

    Returns:
        ``~x``, as ``bitwise_invert``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0, 5, -1])
    >>> ops.convert_to_numpy(ops.bitwise_not(x)).tolist()
    [-1, -6, 0]
    """
