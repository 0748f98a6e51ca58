"""Changing shape and layout: reshape, transpose, axes, squeeze, broadcast, flips, rolls,
tiling, views and copies."""

import math

import torch

from mb_backend_torch._dtypes import to_torch_dtype
from mb_backend_torch.numpy._common import canonicalize_axis, ints, t


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


def tile(x, repeats):
    return torch.tile(t(x), tuple(ints(repeats)))


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
        return torch.roll(x.reshape(-1), ints(shift)).reshape(x.shape)
    shifts = tuple(ints(shift))
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
        i.to(dtype) for i in torch.unravel_index(indices.to(torch.int64), tuple(ints(shape)))
    )


def copy(x):
    return torch.clone(t(x))


def view(x, dtype=None):
    x = t(x)
    if dtype is None:
        return x.view(x.shape)
    return x.view(to_torch_dtype(dtype))
