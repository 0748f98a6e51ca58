"""Joining and splitting tensors: concatenate, stack, hstack/vstack/dstack, append and
split, array_split, hsplit/vsplit/dsplit."""

from __future__ import annotations

import builtins
import itertools
from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    canonical_axis,
    dtype_of,
    fmt,
    num_elements,
    shape_of,
    std_dtype,
    tensor,
)


def _join_dtype(xs: Any) -> str:
    return _dtypes.result_type(*(dtype_of(x) for x in xs))


def _concatenate_spec(op_name: str, xs: Any, axis: Any = 0) -> Any:
    shapes = [shape_of(x) for x in xs]
    if not shapes:
        raise ValueError(f"{op_name}: expected at least one tensor, received none.")
    if axis is None:
        total = [num_elements(s) for s in shapes]
        return tensor((None if None in total else builtins.sum(total),), _join_dtype(xs))
    ndim = len(shapes[0])
    ax = canonical_axis(op_name, axis, ndim, shapes[0])
    out: list[Any] = []
    for i in range(ndim):
        dims = [s[i] if len(s) == ndim else "rank" for s in shapes]
        if "rank" in dims:
            raise ValueError(
                f"{op_name}: all inputs must have the same rank; received shapes "
                f"{', '.join(fmt(s) for s in shapes)}."
            )
        if i == ax:
            out.append(None if None in dims else builtins.sum(dims))
            continue
        known = {d for d in dims if d is not None}
        if len(known) > 1:
            raise ValueError(
                f"{op_name}: the input shapes {', '.join(fmt(s) for s in shapes)} differ on "
                f"axis {i}, which is not the concatenation axis {axis}."
            )
        out.append(known.pop() if known else None)
    return tensor(out, _join_dtype(xs))


@op(_concatenate_spec)
def concatenate(xs, axis=0):
    """Join a sequence of tensors along an existing axis.

    Args:
        xs: a list or tuple of tensors of the same rank, whose shapes match
            except along `axis`.
        axis: the axis to join along.

    Returns:
        One tensor; its dtype is the inputs' result type.

    Example:

    >>> from mb_ops import ops
    >>> joined = ops.concatenate([ops.ones((1, 2)), ops.zeros((2, 2))], axis=0)
    >>> ops.convert_to_numpy(joined).tolist()
    [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    """


def _append_spec(op_name: str, x1: Any, x2: Any, axis: Any = None) -> Any:
    return _concatenate_spec(op_name, [x1, x2], axis)


@op(_append_spec)
def append(x1, x2, axis=None):
    """Append ``x2`` to ``x1`` along an axis (flattened when axis is None).

    Args:
        x1: a tensor.
        x2: the values to append; with ``x1``'s shape except along ``axis``.
        axis: the axis to append along; None flattens both tensors first.

    Returns:
        ``x1`` followed by ``x2`` along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> y = ops.convert_to_tensor([[5, 6]])
    >>> ops.convert_to_numpy(ops.append(x, y)).tolist()
    [1, 2, 3, 4, 5, 6]
    >>> ops.convert_to_numpy(ops.append(x, y, axis=0)).tolist()
    [[1, 2], [3, 4], [5, 6]]
    """


def _merge_dims(op_name: str, shapes: list[Any]) -> tuple[Any, ...]:
    ndim = len(shapes[0])
    out = []
    for i in range(ndim):
        known = {s[i] for s in shapes if len(s) == ndim and s[i] is not None}
        if builtins.any(len(s) != ndim for s in shapes) or len(known) > 1:
            raise ValueError(
                f"{op_name}: all inputs must have the same shape; received "
                f"{', '.join(fmt(s) for s in shapes)}."
            )
        out.append(known.pop() if known else None)
    return tuple(out)


def _stack_spec(op_name: str, x: Any, axis: int = 0) -> Any:
    shapes = [shape_of(v) for v in x]
    if not shapes:
        raise ValueError(f"{op_name}: expected at least one tensor, received none.")
    shape = list(_merge_dims(op_name, shapes))
    ax = canonical_axis(op_name, axis, len(shape) + 1)
    shape.insert(ax, len(shapes))
    return tensor(shape, _join_dtype(x))


@op(_stack_spec)
def stack(x, axis=0):
    """Join a sequence of tensors along a new axis.

    Args:
        x: a sequence of tensors of the same shape.
        axis: the position of the new axis.

    Returns:
        A tensor of rank ``ndim + 1``: the tensors joined along the new axis ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([1, 2])
    >>> b = ops.convert_to_tensor([3, 4])
    >>> ops.convert_to_numpy(ops.stack([a, b])).tolist()
    [[1, 2], [3, 4]]
    >>> ops.convert_to_numpy(ops.stack([a, b], axis=1)).tolist()
    [[1, 3], [2, 4]]
    """


def _at_least(shape: tuple[Any, ...], ndim: int, where: str) -> tuple[Any, ...]:
    if len(shape) >= ndim:
        return shape
    if where == "hstack" or len(shape) == 0:
        return (1,) * (ndim - len(shape)) + shape
    if ndim == 2:
        return (1, *shape)
    return (1, *shape, 1) if len(shape) == 1 else (*shape, 1)


def _stack_along(op_name: str, xs: Any, ndim: int, axis: int) -> Any:
    shapes = [_at_least(shape_of(x), ndim, op_name) for x in xs]
    fake = [_Shaped(s, dtype_of(x)) for s, x in zip(shapes, xs, strict=True)]
    if op_name == "hstack" and shapes and len(shapes[0]) == 1:
        axis = 0
    return _concatenate_spec(op_name, fake, axis)


class _Shaped:
    def __init__(self, shape: Any, dtype: Any) -> None:
        self.shape = shape
        self.dtype = dtype if isinstance(dtype, str) else _dtypes.result_type(dtype)


@op(lambda op_name, xs: _stack_along(op_name, xs, 1, 1))
def hstack(xs):
    """Stack tensors horizontally (column wise).

    Args:
        xs: a sequence of tensors.

    Returns:
        The tensors joined along axis 1 (axis 0 for 1D tensors).

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([[1], [2]])
    >>> b = ops.convert_to_tensor([[3], [4]])
    >>> ops.convert_to_numpy(ops.hstack([a, b])).tolist()
    [[1, 3], [2, 4]]
    >>> c = ops.convert_to_tensor([5, 6, 7])
    >>> ops.convert_to_numpy(ops.hstack([c, c])).tolist()
    [5, 6, 7, 5, 6, 7]
    """


@op(lambda op_name, xs: _stack_along(op_name, xs, 2, 0))
def vstack(xs):
    """Stack tensors vertically (row wise).

    Args:
        xs: a sequence of tensors.

    Returns:
        The tensors joined along axis 0, 1D tensors of length N taken as rows (1, N).

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([1, 2])
    >>> b = ops.convert_to_tensor([3, 4])
    >>> ops.convert_to_numpy(ops.vstack([a, b])).tolist()
    [[1, 2], [3, 4]]
    """


@op(lambda op_name, xs: _stack_along(op_name, xs, 3, 2))
def dstack(xs):
    """Stack tensors along the third axis.

    Args:
        xs: a sequence of tensors.

    Returns:
        The tensors joined along axis 2, lower-rank tensors taken as shape (1, N, 1) or (M, N, 1).

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([1, 2])
    >>> b = ops.convert_to_tensor([3, 4])
    >>> ops.convert_to_numpy(ops.dstack([a, b])).tolist()
    [[[1, 3], [2, 4]]]
    """


def _split_spec(op_name: str, x: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    shape = list(shape_of(x))
    ax = canonical_axis(op_name, axis, len(shape), tuple(shape))
    size = shape[ax]
    dtype = std_dtype(x)
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if size is not None and op_name != "array_split" and size % n:
            raise ValueError(
                f"{op_name}: axis {axis} of size {size} cannot be split into {n} equal "
                "sections. Use array_split for unequal sections."
            )
        if size is None:
            sizes = [None] * n
        else:
            base, extra = divmod(size, n)
            sizes = [base + 1 if i < extra else base for i in range(n)]
    else:
        bounds = [0, *[int(i) for i in indices_or_sections], size]
        sizes = []
        for lo, hi in itertools.pairwise(bounds):
            if hi is None:
                sizes.append(None)
            else:
                sizes.append(builtins.max(0, builtins.min(hi, size) - builtins.min(lo, size)))
    out = []
    for s in sizes:
        part = list(shape)
        part[ax] = s
        out.append(tensor(part, dtype))
    return out


@op(_split_spec)
def split(x, indices_or_sections, axis=0):
    """Split a tensor into sub-tensors along an axis.

    Args:
        x: a tensor.
        indices_or_sections: a number of equal sections, or the sorted indices at which to split.
        axis: the axis to split along.

    Returns:
        A list of tensors: ``x`` cut at the given indices, or into equal sections (which must divide
        ``x``'s size along ``axis``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3, 4, 5, 6])
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.split(x, 3)]
    [[1, 2], [3, 4], [5, 6]]
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.split(x, [1, 4])]
    [[1], [2, 3, 4], [5, 6]]
    """


@op(_split_spec)
def array_split(x, indices_or_sections, axis=0):
    """Split a tensor into possibly unequal sub-tensors.

    Args:
        x: a tensor.
        indices_or_sections: a number of equal sections, or the sorted indices at which to split.
        axis: the axis to split along.

    Returns:
        A list of tensors: ``x`` cut at the given indices, or into N sections, the first ``size %
        N`` of them one element longer.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3, 4, 5])
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.array_split(x, 3)]
    [[1, 2], [3, 4], [5]]
    """


@op(lambda op_name, x, ios: _split_spec(op_name, x, ios, 1 if len(shape_of(x)) > 1 else 0))
def hsplit(x, indices_or_sections):
    """Split horizontally (column wise).

    Args:
        x: a tensor.
        indices_or_sections: a number of equal sections, or the sorted indices at which to split.

    Returns:
        A list of tensors: ``split`` along axis 1 (axis 0 for 1D tensors).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3, 4]])
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.hsplit(x, 2)]
    [[[1, 2]], [[3, 4]]]
    """


@op(lambda op_name, x, ios: _split_spec(op_name, x, ios, 0))
def vsplit(x, indices_or_sections):
    """Split vertically (row wise).

    Args:
        x: a tensor.
        indices_or_sections: a number of equal sections, or the sorted indices at which to split.

    Returns:
        A list of tensors: ``split`` along axis 0.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.vsplit(x, 2)]
    [[[1, 2]], [[3, 4]]]
    """


@op(lambda op_name, x, ios: _split_spec(op_name, x, ios, 2))
def dsplit(x, indices_or_sections):
    """Split along the third axis.

    Args:
        x: a tensor of rank 3 or more.
        indices_or_sections: a number of equal sections, or the sorted indices at which to split.

    Returns:
        A list of tensors: ``split`` along axis 2.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[[1, 2, 3, 4]]])  # shape (1, 1, 4)
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.dsplit(x, 2)]
    [[[[1, 2]]], [[[3, 4]]]]
    """
