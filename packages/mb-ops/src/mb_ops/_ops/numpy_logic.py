"""Element-wise logic numpy ops: comparisons, closeness, float classification, logical and
bitwise ops."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import broadcast_shapes, dtype_of, shape_of, tensor
from mb_ops._ops._specs import binary_bool, unary_bool, unary_same

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
