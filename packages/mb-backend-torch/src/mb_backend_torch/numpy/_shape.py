"""Shape manipulation, joining and splitting, padding and indexing."""

import math

import numpy as np
import torch

from mb_backend_torch.numpy._helpers import (
    Tensor,
    canonicalize_axis,
    promote,
    promote_many,
    t,
)


def _ints(values):
    if isinstance(values, Tensor):
        return [int(v) for v in values.tolist()]
    if isinstance(values, int):
        return [values]
    return [int(v) for v in values]


def reshape(x, newshape):
    if isinstance(newshape, int):
        newshape = (newshape,)
    return torch.reshape(t(x), tuple(newshape))


def ravel(x):
    return torch.ravel(t(x))


def transpose(x, axes=None):
    x = t(x)
    if axes is None:
        return x.permute(tuple(range(x.ndim - 1, -1, -1)))
    return x.permute(tuple(axes))


def swapaxes(x, axis1, axis2):
    return torch.swapaxes(t(x), axis1, axis2)


def moveaxis(x, source, destination):
    return torch.moveaxis(t(x), source, destination)


def expand_dims(x, axis):
    x = t(x)
    axes = [axis] if isinstance(axis, int) else list(axis)
    out_ndim = x.ndim + len(axes)
    for a in sorted(canonicalize_axis(a, out_ndim) for a in axes):
        x = x.unsqueeze(a)
    return x


def squeeze(x, axis=None):
    x = t(x)
    if axis is None:
        return torch.squeeze(x)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(
                f"squeeze: cannot remove axis {a} of size {x.shape[a]} from shape "
                f"{tuple(x.shape)}; only axes of size 1 can be squeezed."
            )
    return torch.squeeze(x, dim=axes)


def broadcast_to(x, shape):
    return torch.broadcast_to(t(x), tuple(shape))


def _same_dtype(xs):
    xs = [t(x) for x in xs]
    if len({x.dtype for x in xs}) > 1:
        xs = promote_many(*xs)
    return xs


def concatenate(xs, axis=0):
    xs = _same_dtype(xs)
    if axis is None:
        return torch.cat([x.reshape(-1) for x in xs])
    return torch.cat(xs, dim=axis)


def stack(x, axis=0):
    return torch.stack(_same_dtype(x), dim=axis)


def hstack(xs):
    return torch.hstack(_same_dtype(xs))


def vstack(xs):
    return torch.vstack(_same_dtype(xs))


def dstack(xs):
    return torch.dstack(_same_dtype(xs))


def append(x1, x2, axis=None):
    x1, x2 = promote(x1, x2)
    if axis is None:
        return torch.cat((x1.reshape(-1), x2.reshape(-1)))
    return torch.cat((x1, x2), dim=axis)


def split(x, indices_or_sections, axis=0):
    x = t(x)
    size = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if size % indices_or_sections != 0:
            raise ValueError(
                f"split: axis {axis} of size {size} (shape {tuple(x.shape)}) cannot be split "
                f"into {indices_or_sections} equal sections. Use array_split for unequal parts."
            )
        return list(torch.tensor_split(x, indices_or_sections, dim=axis))
    return list(torch.tensor_split(x, _ints(indices_or_sections), dim=axis))


def array_split(x, indices_or_sections, axis=0):
    x = t(x)
    if not isinstance(indices_or_sections, int):
        indices_or_sections = _ints(indices_or_sections)
    return list(torch.tensor_split(x, indices_or_sections, dim=axis))


def hsplit(x, indices_or_sections):
    x = t(x)
    return split(x, indices_or_sections, axis=1 if x.ndim > 1 else 0)


def vsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=2)


def tile(x, repeats):
    return torch.tile(t(x), tuple(_ints(repeats)))


def repeat(x, repeats, axis=None):
    x = t(x)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if not isinstance(repeats, int):
        repeats = t(repeats).to(device=x.device, dtype=torch.int64)
        if repeats.ndim == 0:
            repeats = int(repeats)
    return torch.repeat_interleave(x, repeats, dim=axis)


def flip(x, axis=None):
    x = t(x)
    if axis is None:
        axis = tuple(range(x.ndim))
    elif isinstance(axis, int):
        axis = (axis,)
    return torch.flip(x, dims=tuple(axis))


def fliplr(x):
    return torch.fliplr(t(x))


def flipud(x):
    return torch.flipud(t(x))


def roll(x, shift, axis=None):
    x = t(x)
    if axis is None:
        return torch.roll(x.reshape(-1), _ints(shift)).reshape(x.shape)
    shifts = tuple(_ints(shift))
    dims = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(shifts) == 1 and len(dims) > 1:
        shifts = shifts * len(dims)
    return torch.roll(x, shifts, dims)


def rot90(array, k=1, axes=(0, 1)):
    array = t(array)
    if array.ndim < 2:
        raise ValueError(f"rot90 needs an array of rank >= 2. Received shape {tuple(array.shape)}.")
    if len(axes) != 2 or axes[0] % array.ndim == axes[1] % array.ndim:
        raise ValueError(f"rot90 needs two different axes. Received axes={axes}.")
    return torch.rot90(array, k=k, dims=tuple(axes))


def _pad_index(n, before, after, mode, device):
    # Source index of every position of the padded axis.
    i = torch.arange(-before, n + after, device=device)
    if mode == "edge":
        return i.clamp(0, n - 1)
    if mode == "wrap":
        return i.remainder(n)
    if mode == "reflect":
        if n == 1:
            return torch.zeros_like(i)
        period = 2 * n - 2
        j = i.remainder(period)
        return torch.where(j < n, j, period - j)
    # symmetric
    period = 2 * n
    j = i.remainder(period)
    return torch.where(j < n, j, period - 1 - j)


_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def pad(x, pad_width, mode="constant", constant_values=None):
    x = t(x)
    widths = np.broadcast_to(
        np.asarray(pad_width, dtype=np.int64).reshape(-1, 2)
        if np.ndim(pad_width)
        else np.asarray([[pad_width] * 2]),
        (x.ndim, 2),
    )
    if mode not in _PAD_MODES:
        raise ValueError(
            f"pad: mode {mode!r} is not supported on the torch backend. "
            f"Expected one of {_PAD_MODES}."
        )
    if constant_values is not None and mode != "constant":
        raise ValueError(
            f"pad: constant_values can only be given with mode='constant'. Received mode={mode!r}."
        )
    if mode == "constant":
        flat = []
        for before, after in reversed(widths.tolist()):
            flat += [before, after]
        value = 0 if constant_values is None else constant_values
        if x.dtype is torch.bool:
            return torch.nn.functional.pad(x.to(torch.uint8), flat, value=value).to(torch.bool)
        return torch.nn.functional.pad(x, flat, mode="constant", value=value)
    for axis, (before, after) in enumerate(widths.tolist()):
        if before or after:
            index = _pad_index(x.shape[axis], before, after, mode, x.device)
            x = torch.index_select(x, axis, index)
    return x


def tril(x, k=0):
    return torch.tril(t(x), diagonal=k)


def triu(x, k=0):
    return torch.triu(t(x), diagonal=k)


def diag(x, k=0):
    return torch.diag(t(x), diagonal=k)


def diagflat(x, k=0):
    return torch.diagflat(t(x), offset=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return torch.diagonal(t(x), offset=offset, dim1=axis1, dim2=axis2)


def take(x, indices, axis=None):
    x = t(x)
    indices = t(indices).to(device=x.device, dtype=torch.int64)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    axis = canonicalize_axis(axis, x.ndim)
    size = x.shape[axis]
    indices = torch.where(indices < 0, indices + size, indices)
    out = torch.index_select(x, axis, indices.reshape(-1))
    return out.reshape(x.shape[:axis] + indices.shape + x.shape[axis + 1 :])


def take_along_axis(x, indices, axis=None):
    x = t(x)
    indices = t(indices).to(device=x.device, dtype=torch.int64)
    if axis is None:
        x = x.reshape(-1)
        indices = indices.reshape(-1)
        axis = 0
    axis = canonicalize_axis(axis, x.ndim)
    size = x.shape[axis]
    indices = torch.where(indices < 0, indices + size, indices)
    # Broadcast every axis but ``axis`` (as numpy does).
    shape_x = list(x.shape)
    shape_i = list(indices.shape)
    shape_x[axis] = 1
    shape_i[axis] = 1
    common = list(torch.broadcast_shapes(tuple(shape_x), tuple(shape_i)))
    x = x.expand([*common[:axis], x.shape[axis], *common[axis + 1 :]])
    indices = indices.expand([*common[:axis], indices.shape[axis], *common[axis + 1 :]])
    return torch.gather(x, axis, indices)


def where(condition, x1=None, x2=None):
    condition = t(condition)
    if condition.dtype is not torch.bool:
        condition = condition.to(torch.bool)
    if x1 is None and x2 is None:
        return tuple(i.to(torch.int32) for i in torch.nonzero(condition, as_tuple=True))
    if x1 is None or x2 is None:
        raise ValueError("where: pass both x1 and x2, or neither.")
    x1, x2 = promote(x1, x2)
    return torch.where(condition, x1, x2)


def select(condlist, choicelist, default=0):
    choices = promote_many(*choicelist, default)
    out = choices[-1]
    for cond, value in zip(reversed(condlist), reversed(choices[:-1]), strict=True):
        out = torch.where(t(cond).to(torch.bool), value, out)
    return out


def nonzero(x):
    return tuple(i.to(torch.int32) for i in torch.nonzero(t(x), as_tuple=True))


def size(x):
    return math.prod(t(x).shape)


def ndim(x):
    return t(x).ndim


def unravel_index(indices, shape):
    indices = t(indices)
    dtype = indices.dtype
    return tuple(
        i.to(dtype) for i in torch.unravel_index(indices.to(torch.int64), tuple(_ints(shape)))
    )
