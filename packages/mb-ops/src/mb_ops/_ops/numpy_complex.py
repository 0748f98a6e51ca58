"""Complex-part numpy ops: real and imaginary parts, conjugate, angle."""

from __future__ import annotations

from mb_ops._ops._machinery import op
from mb_ops._ops._specs import unary_real, unary_same


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
