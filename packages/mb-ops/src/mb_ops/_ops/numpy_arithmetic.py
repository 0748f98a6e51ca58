"""Element-wise arithmetic numpy ops: the four operations, powers and roots, signs and
absolute values, extremes, rounding, clipping, integer and float-bit
helpers (complex parts are in ``numpy_complex``)."""

from __future__ import annotations

from typing import Any

from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import like, std_dtype
from mb_ops._ops._specs import (
    binary,
    binary_bool_to_int,
    binary_first_dtype,
    binary_float,
    unary_bool_to_int,
    unary_float,
    unary_real,
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
