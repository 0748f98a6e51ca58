"""Scans along an axis: cumulative sums and products (and their NaN-ignoring forms) and
their inverse, ``diff``."""

from __future__ import annotations

import builtins
from typing import Any

from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import canonical_axis, num_elements, shape_of, std_dtype, tensor


def _cumulative_spec(op_name: str, x: Any, axis: Any = None, dtype: Any = None) -> Any:
    shape = shape_of(x)
    out_dtype = std_dtype(x) if dtype is None else dtype
    if out_dtype == "bool":
        out_dtype = "int32"
    if axis is None:
        return tensor((num_elements(shape),), out_dtype)
    canonical_axis(op_name, axis, len(shape), shape)
    return tensor(shape, out_dtype)


@op(_cumulative_spec)
def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along an axis (of the flattened tensor when axis is None).

    Args:
        x: a tensor.
        axis: the axis to accumulate along; None accumulates the flattened tensor.
        dtype: the dtype of the result; None: ``x``'s (int32 for bool).

    Returns:
        The running sums along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.cumsum(x)).tolist()
    [1, 3, 6, 10, 15, 21]
    >>> ops.convert_to_numpy(ops.cumsum(x, axis=1)).tolist()
    [[1, 3, 6], [4, 9, 15]]
    """


@op(_cumulative_spec)
def cumprod(x, axis=None, dtype=None):
    """Cumulative product along an axis.

    Args:
        x: a tensor.
        axis: the axis to accumulate along; None accumulates the flattened tensor.
        dtype: the dtype of the result; None: ``x``'s (int32 for bool).

    Returns:
        The running products along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.cumprod(x)).tolist()
    [1, 2, 6, 24, 120, 720]
    >>> ops.convert_to_numpy(ops.cumprod(x, axis=0)).tolist()
    [[1, 2, 3], [4, 10, 18]]
    """


@op(_cumulative_spec)
def nancumsum(x, axis=None, dtype=None):
    """Cumulative sum treating NaNs as zero.

    Args:
        x: a tensor.
        axis: the axis to accumulate along; None accumulates the flattened tensor.
        dtype: the dtype of the result; None: ``x``'s (int32 for bool).

    Returns:
        The running sums along ``axis``, with NaNs counting as 0.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nancumsum(x)).tolist()
    [1.0, 1.0, 4.0]
    """


@op(_cumulative_spec)
def nancumprod(x, axis=None, dtype=None):
    """Cumulative product treating NaNs as one.

    Args:
        x: a tensor.
        axis: the axis to accumulate along; None accumulates the flattened tensor.
        dtype: the dtype of the result; None: ``x``'s (int32 for bool).

    Returns:
        The running products along ``axis``, with NaNs counting as 1.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([2.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nancumprod(x)).tolist()
    [2.0, 2.0, 6.0]
    """


def _diff_spec(op_name: str, a: Any, n: int = 1, axis: int = -1) -> Any:
    shape = list(shape_of(a))
    ax = canonical_axis(op_name, axis, len(shape), tuple(shape))
    if shape[ax] is not None:
        shape[ax] = builtins.max(0, shape[ax] - n)
    return tensor(shape, std_dtype(a))


@op(_diff_spec)
def diff(a, n=1, axis=-1):
    """The n-th discrete difference along an axis.

    Args:
        a: a tensor.
        n: how many times to take differences.
        axis: the axis to difference along.

    Returns:
        ``a[i + 1] - a[i]`` along ``axis``, applied ``n`` times (``axis`` shrinks by ``n``).

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([1, 4, 9, 16])
    >>> ops.convert_to_numpy(ops.diff(a)).tolist()
    [3, 5, 7]
    >>> ops.convert_to_numpy(ops.diff(a, n=2)).tolist()
    [2, 2]
    >>> ops.convert_to_numpy(ops.diff(ops.convert_to_tensor([[1, 2], [5, 3]]), axis=0)).tolist()
    [[4, 1]]
    """
