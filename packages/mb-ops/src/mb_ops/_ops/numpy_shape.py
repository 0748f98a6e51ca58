"""Shape manipulation numpy ops: reshape, transpose, join, split, flip, index."""

from __future__ import annotations

import builtins
import itertools
from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    as_int_or_none,
    canonical_axes,
    canonical_axis,
    dtype_of,
    fmt,
    like,
    num_elements,
    reshape_shape,
    shape_of,
    std_dtype,
    tensor,
)


def _reshape_spec(op_name: str, x: Any, newshape: Any) -> Any:
    return tensor(reshape_shape(op_name, shape_of(x), newshape), std_dtype(x))


@op(_reshape_spec)
def reshape(x, newshape):
    """Give a new shape to a tensor without changing its data (one -1 allowed).

    Args:
        x: a tensor.
        newshape: the new shape, with as many elements as `x`; one axis may be
            -1, inferred from the others.

    Returns:
        The elements of `x` in row-major order with the new shape, in `x`'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.reshape(ops.arange(6), (3, -1))).tolist()
    [[0, 1], [2, 3], [4, 5]]
    """


def _ravel_spec(op_name: str, x: Any) -> Any:
    return tensor((num_elements(shape_of(x)),), std_dtype(x))


@op(_ravel_spec)
def ravel(x):
    """Flatten to one dimension.

    Args:
        x: a tensor.

    Returns:
        A 1D tensor of ``x``'s elements in row-major order.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.ravel(x)).tolist()
    [1, 2, 3, 4]
    """


def _transpose_spec(op_name: str, x: Any, axes: Any = None) -> Any:
    shape = shape_of(x)
    if axes is None:
        return tensor(shape[::-1], std_dtype(x))
    if len(axes) != len(shape):
        raise ValueError(
            f"{op_name}: axes={tuple(axes)} must name every axis of the input of shape "
            f"{fmt(shape)} once."
        )
    perm = [canonical_axis(op_name, a, len(shape), shape) for a in axes]
    if sorted(perm) != list(range(len(shape))):
        raise ValueError(f"{op_name}: axes={tuple(axes)} is not a permutation.")
    return tensor(tuple(shape[a] for a in perm), std_dtype(x))


@op(_transpose_spec)
def transpose(x, axes=None):
    """Permute the axes of a tensor (reverse them when axes is None).

    Args:
        x: a tensor.
        axes: the new order of the axes (a permutation of ``range(ndim)``); None reverses them.

    Returns:
        ``x`` with its axes permuted.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.transpose(x)).tolist()
    [[1, 4], [2, 5], [3, 6]]
    >>> tuple(ops.transpose(ops.ones((2, 3, 4)), axes=(1, 0, 2)).shape)
    (3, 2, 4)
    """


def _expand_dims_spec(op_name: str, x: Any, axis: Any) -> Any:
    shape = list(shape_of(x))
    axes = axis if isinstance(axis, (list, tuple)) else (axis,)
    out_ndim = len(shape) + len(axes)
    positions = sorted(canonical_axis(op_name, a, out_ndim, None) for a in axes)
    for pos in positions:
        shape.insert(pos, 1)
    return tensor(shape, std_dtype(x))


@op(_expand_dims_spec)
def expand_dims(x, axis):
    """Insert new axes of size 1 at the given positions.

    Args:
        x: a tensor.
        axis: the position or positions (in the output) of the new axes.

    Returns:
        ``x`` with axes of size 1 inserted at ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2])
    >>> ops.convert_to_numpy(ops.expand_dims(x, 0)).tolist()
    [[1, 2]]
    >>> ops.convert_to_numpy(ops.expand_dims(x, 1)).tolist()
    [[1], [2]]
    >>> tuple(ops.expand_dims(x, (0, 2)).shape)
    (1, 2, 1)
    """


def _squeeze_spec(op_name: str, x: Any, axis: Any = None) -> Any:
    shape = shape_of(x)
    if axis is None:
        return tensor(tuple(d for d in shape if d != 1), std_dtype(x))
    axes = canonical_axes(op_name, axis, len(shape), shape)
    for a in axes:
        if shape[a] not in (1, None):
            raise ValueError(
                f"{op_name}: cannot squeeze axis {a} of the input of shape {fmt(shape)}: "
                "its size is not 1."
            )
    return tensor(tuple(d for i, d in enumerate(shape) if i not in axes), std_dtype(x))


@op(_squeeze_spec)
def squeeze(x, axis=None):
    """Remove axes of size 1.

    Args:
        x: a tensor.
        axis: an axis or a tuple of size-1 axes to remove; None removes them all.

    Returns:
        ``x`` without the size-1 axes (the given ones only, when ``axis`` is set).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[[1], [2]]])  # shape (1, 2, 1)
    >>> ops.convert_to_numpy(ops.squeeze(x)).tolist()
    [1, 2]
    >>> ops.convert_to_numpy(ops.squeeze(x, axis=0)).tolist()
    [[1], [2]]
    """


def _moveaxis_spec(op_name: str, x: Any, source: Any, destination: Any) -> Any:
    shape = shape_of(x)
    src = source if isinstance(source, (list, tuple)) else [source]
    dst = destination if isinstance(destination, (list, tuple)) else [destination]
    if len(src) != len(dst):
        raise ValueError(f"{op_name}: source and destination must have the same length.")
    src = [canonical_axis(op_name, a, len(shape), shape, "source") for a in src]
    dst = [canonical_axis(op_name, a, len(shape), shape, "destination") for a in dst]
    order = [i for i in range(len(shape)) if i not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return tensor(tuple(shape[i] for i in order), std_dtype(x))


@op(_moveaxis_spec)
def moveaxis(x, source, destination):
    """Move axes to new positions.

    Args:
        x: a tensor.
        source: an axis or a sequence of axes to move.
        destination: their new positions, one per ``source`` axis.

    Returns:
        ``x`` with the ``source`` axes moved to the ``destination`` positions, the other axes
        keeping their order.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.moveaxis(x, 0, 1)).tolist()
    [[1, 4], [2, 5], [3, 6]]
    >>> tuple(ops.moveaxis(ops.ones((2, 3, 4)), 0, -1).shape)
    (3, 4, 2)
    """


def _swapaxes_spec(op_name: str, x: Any, axis1: int, axis2: int) -> Any:
    shape = list(shape_of(x))
    a = canonical_axis(op_name, axis1, len(shape), shape, "axis1")
    b = canonical_axis(op_name, axis2, len(shape), shape, "axis2")
    shape[a], shape[b] = shape[b], shape[a]
    return tensor(shape, std_dtype(x))


@op(_swapaxes_spec)
def swapaxes(x, axis1, axis2):
    """Interchange two axes.

    Args:
        x: a tensor.
        axis1: the first axis.
        axis2: the second axis.

    Returns:
        ``x`` with ``axis1`` and ``axis2`` interchanged.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.swapaxes(x, 0, 1)).tolist()
    [[1, 4], [2, 5], [3, 6]]
    >>> tuple(ops.swapaxes(ops.ones((2, 3, 4)), 0, 2).shape)
    (4, 3, 2)
    """


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


def _flip_spec(op_name: str, x: Any, axis: Any = None) -> Any:
    shape = shape_of(x)
    canonical_axes(op_name, axis, len(shape), shape)
    return like(x)


@op(_flip_spec)
def flip(x, axis=None):
    """Reverse the order of elements along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reverse; None reverses all.

    Returns:
        ``x`` with the order of its elements reversed along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.flip(x)).tolist()
    [[4, 3], [2, 1]]
    >>> ops.convert_to_numpy(ops.flip(x, axis=1)).tolist()
    [[2, 1], [4, 3]]
    """


def _need_rank(op_name: str, x: Any, ndim: int) -> Any:
    if len(shape_of(x)) < ndim:
        raise ValueError(
            f"{op_name}: expected an input of rank >= {ndim}, received shape {fmt(shape_of(x))}."
        )
    return like(x)


@op(lambda op_name, x: _need_rank(op_name, x, 2))
def fliplr(x):
    """Reverse the order of elements along axis 1.

    Args:
        x: a tensor of rank 2 or more.

    Returns:
        ``x`` with its columns (axis 1) in reverse order.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.fliplr(x)).tolist()
    [[2, 1], [4, 3]]
    """


@op(lambda op_name, x: _need_rank(op_name, x, 1))
def flipud(x):
    """Reverse the order of elements along axis 0.

    Args:
        x: a tensor of rank 1 or more.

    Returns:
        ``x`` with its rows (axis 0) in reverse order.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.flipud(x)).tolist()
    [[3, 4], [1, 2]]
    """


def _roll_spec(op_name: str, x: Any, shift: Any, axis: Any = None) -> Any:
    shape = shape_of(x)
    canonical_axes(op_name, axis, len(shape), shape)
    return like(x)


@op(_roll_spec)
def roll(x, shift, axis=None):
    """Roll elements along an axis.

    Args:
        x: a tensor.
        shift: the number of places to shift (an int, or one per axis).
        axis: an axis or a tuple of axes to roll along; None rolls the flattened tensor and restores
            its shape.

    Returns:
        ``x`` with its elements shifted by ``shift`` along ``axis``; those shifted past the end come
        back at the start.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3, 4, 5])
    >>> ops.convert_to_numpy(ops.roll(x, 2)).tolist()
    [4, 5, 1, 2, 3]
    >>> ops.convert_to_numpy(ops.roll(x, -1)).tolist()
    [2, 3, 4, 5, 1]
    >>> m = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.roll(m, 1, axis=1)).tolist()
    [[3, 1, 2], [6, 4, 5]]
    """


def _rot90_spec(op_name: str, array: Any, k: int = 1, axes: Any = (0, 1)) -> Any:
    shape = list(shape_of(array))
    if len(shape) < 2:
        raise ValueError(f"{op_name}: expected rank >= 2, received shape {fmt(shape)}.")
    a, b = (canonical_axis(op_name, ax, len(shape), shape, "axes") for ax in axes)
    if a == b:
        raise ValueError(f"{op_name}: axes must be different, received {tuple(axes)}.")
    if k % 2:
        shape[a], shape[b] = shape[b], shape[a]
    return tensor(shape, std_dtype(array))


@op(_rot90_spec)
def rot90(array, k=1, axes=(0, 1)):
    """Rotate by 90 degrees in the plane of ``axes``.

    Args:
        array: a tensor of rank 2 or more.
        k: the number of quarter turns (negative: clockwise).
        axes: the two axes of the plane of rotation.

    Returns:
        ``array`` rotated ``k`` times by 90 degrees, counterclockwise from the first axis of
        ``axes`` towards the second.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.rot90(x)).tolist()
    [[2, 4], [1, 3]]
    >>> ops.convert_to_numpy(ops.rot90(x, k=2)).tolist()
    [[4, 3], [2, 1]]
    """


def _tile_spec(op_name: str, x: Any, repeats: Any) -> Any:
    shape = list(shape_of(x))
    reps = [repeats] if isinstance(repeats, int) else list(repeats)
    n = builtins.max(len(shape), len(reps))
    shape = [1] * (n - len(shape)) + shape
    reps = [1] * (n - len(reps)) + reps
    out = []
    for d, r in zip(shape, reps, strict=True):
        r = as_int_or_none(r)
        out.append(None if d is None or r is None else d * r)
    return tensor(out, std_dtype(x))


@op(_tile_spec)
def tile(x, repeats):
    """Repeat a tensor ``repeats`` times along each axis.

    Args:
        x: a tensor.
        repeats: an int or one int per axis (more than ``ndim`` adds leading axes).

    Returns:
        ``x`` repeated ``repeats`` times along each axis.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2])
    >>> ops.convert_to_numpy(ops.tile(x, 2)).tolist()
    [1, 2, 1, 2]
    >>> ops.convert_to_numpy(ops.tile(x, (2, 1))).tolist()
    [[1, 2], [1, 2]]
    """


def _repeat_spec(op_name: str, x: Any, repeats: Any, axis: Any = None) -> Any:
    shape = shape_of(x)
    r = as_int_or_none(repeats)
    if axis is None:
        size = num_elements(shape)
        if r is not None:
            return tensor((None if size is None else size * r,), std_dtype(x))
        return tensor((None,), std_dtype(x))
    ax = canonical_axis(op_name, axis, len(shape), shape)
    out = list(shape)
    if r is not None:
        out[ax] = None if shape[ax] is None else shape[ax] * r
    elif isinstance(repeats, (list, tuple)):
        out[ax] = builtins.sum(int(v) for v in repeats)
    else:
        out[ax] = None
    return tensor(out, std_dtype(x))


@op(_repeat_spec)
def repeat(x, repeats, axis=None):
    """Repeat each element of a tensor.

    Args:
        x: a tensor.
        repeats: an int, or one int per element along ``axis``.
        axis: the axis to repeat along; None repeats the flattened tensor.

    Returns:
        ``x`` with each element repeated ``repeats`` times along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.repeat(x, 2)).tolist()
    [1, 1, 2, 2, 3, 3, 4, 4]
    >>> ops.convert_to_numpy(ops.repeat(x, 2, axis=0)).tolist()
    [[1, 2], [1, 2], [3, 4], [3, 4]]
    >>> ops.convert_to_numpy(ops.repeat(x, [1, 2], axis=1)).tolist()
    [[1, 2, 2], [3, 4, 4]]
    """


def _broadcast_to_spec(op_name: str, x: Any, shape: Any) -> Any:
    target = tuple(shape)
    src = shape_of(x)
    if len(src) > len(target):
        raise ValueError(
            f"{op_name}: cannot broadcast shape {fmt(src)} to the lower-rank {fmt(target)}."
        )
    for s, t in zip(src[::-1], target[::-1], strict=False):
        if s not in (1, None) and t is not None and s != t:
            raise ValueError(f"{op_name}: cannot broadcast shape {fmt(src)} to {fmt(target)}.")
    return tensor(target, std_dtype(x))


@op(_broadcast_to_spec)
def broadcast_to(x, shape):
    """Broadcast a tensor to a new shape.

    Args:
        x: a tensor.
        shape: the target shape; ``x``'s shape must broadcast to it.

    Returns:
        ``x`` broadcast to ``shape``, as in NumPy.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.broadcast_to(x, (2, 3))).tolist()
    [[1, 2, 3], [1, 2, 3]]
    """


@op(lambda op_name, x: like(x))
def copy(x):
    """A copy of the tensor.

    Args:
        x: a tensor.

    Returns:
        A new tensor with ``x``'s values, shape and dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.copy(x)).tolist()
    [1, 2, 3]
    """


def _view_spec(op_name: str, x: Any, dtype: Any = None) -> Any:
    if dtype is None:
        return like(x)
    old = std_dtype(x)
    new = _dtypes.standardize_dtype(dtype)
    shape = list(shape_of(x))
    old_bits, new_bits = _bits(old), _bits(new)
    if shape and old_bits != new_bits and shape[-1] is not None:
        total = shape[-1] * old_bits
        if total % new_bits:
            raise ValueError(
                f"{op_name}: the last axis of shape {fmt(shape)} ({old}) cannot be viewed as {new}."
            )
        shape[-1] = total // new_bits
    return tensor(shape, new)


def _bits(dtype: str) -> int:
    if dtype == "bool":
        return 8
    digits = "".join(c for c in dtype if c.isdigit())
    return int(digits) if digits else 32


@op(_view_spec)
def view(x, dtype=None):
    """View the tensor's memory with another dtype.

    Args:
        x: a tensor.
        dtype: the dtype to read the memory as; None: ``x``'s.

    Returns:
        The same bytes read as ``dtype``: the last axis is rescaled by the ratio of the item sizes.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, -2.0])
    >>> ops.convert_to_numpy(ops.view(x, 'int32')).tolist()  # float32 bit patterns
    [1065353216, -1073741824]
    """


@op(lambda op_name, x: tensor((), "int32"))
def ndim(x):
    """Number of dimensions.

    Args:
        x: a tensor.

    Returns:
        The number of axes of ``x``, as an int.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> int(ops.ndim(x))
    2
    """


@op(lambda op_name, x: tensor((), "int32"))
def size(x):
    """Number of elements.

    Args:
        x: a tensor.

    Returns:
        The number of elements of ``x``, as an int.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> int(ops.size(x))
    6
    """


def _nonzero_spec(op_name: str, x: Any) -> Any:
    return tuple(tensor((None,), "int32") for _ in shape_of(x))


@op(_nonzero_spec)
def nonzero(x):
    """Indices of the non-zero elements, one tensor per axis.

    Args:
        x: a tensor.

    Returns:
        A tuple of int32 tensors, one per axis: the coordinates of the nonzero elements, in
        row-major order.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[0, 7], [3, 0]])
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.nonzero(x)]
    [[0, 1], [1, 0]]
    """


def _unravel_spec(op_name: str, indices: Any, shape: Any) -> Any:
    dtype = std_dtype(indices)
    return tuple(tensor(shape_of(indices), dtype) for _ in shape)


@op(_unravel_spec)
def unravel_index(indices, shape):
    """Convert flat indices into tuples of coordinates.

    Args:
        indices: an int tensor of flat (row-major) indices.
        shape: the shape of the tensor.

    Returns:
        A tuple of int tensors, one per axis of ``shape``: the coordinates of the flat ``indices``.

    Example:

    >>> from mb_ops import ops
    >>> indices = ops.convert_to_tensor([1, 5])
    >>> [ops.convert_to_numpy(p).tolist() for p in ops.unravel_index(indices, (2, 3))]
    [[0, 1], [1, 2]]
    """
