"""Changing shape and layout: reshape, transpose, axes, squeeze, broadcast, flips, rolls,
tiling, views and copies."""

from __future__ import annotations

import builtins
from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    as_int_or_none,
    canonical_axes,
    canonical_axis,
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
