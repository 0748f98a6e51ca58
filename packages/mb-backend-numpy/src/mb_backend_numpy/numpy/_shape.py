"""Changing shape and layout: reshape, transpose, axes, squeeze, broadcast, flips, rolls,
tiling, views and copies."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type, to_numpy_dtype
from mb_backend_numpy.numpy._common import axis_arg, cast


def reshape(x, newshape):
    if isinstance(newshape, list):
        newshape = tuple(newshape)
    return np.reshape(to_tensor(x), newshape)


def ravel(x):
    return np.ravel(to_tensor(x))


def transpose(x, axes=None):
    return np.transpose(to_tensor(x), axes=axis_arg(axes))


def moveaxis(x, source, destination):
    return np.moveaxis(to_tensor(x), axis_arg(source), axis_arg(destination))


def swapaxes(x, axis1, axis2):
    return np.swapaxes(to_tensor(x), axis1, axis2)


def expand_dims(x, axis):
    return np.expand_dims(to_tensor(x), axis_arg(axis))


def squeeze(x, axis=None):
    x = to_tensor(x)
    axis = axis_arg(axis)
    if axis is not None:
        axes = axis if isinstance(axis, tuple) else (axis,)
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(
                    f"squeeze cannot remove axis {a} of size {x.shape[a]} (shape {x.shape}). "
                    "Only axes of size 1 can be squeezed."
                )
    return np.squeeze(x, axis=axis)


def broadcast_to(x, shape):
    return np.broadcast_to(to_tensor(x), tuple(shape))


def ndim(x):
    return np.ndim(to_tensor(x))


def size(x):
    return np.size(to_tensor(x))


def tile(x, repeats):
    return np.tile(to_tensor(x), repeats)


def repeat(x, repeats, axis=None):
    return np.repeat(to_tensor(x), to_tensor(repeats), axis=axis)


def flip(x, axis=None):
    return np.flip(to_tensor(x), axis=axis_arg(axis))


def fliplr(x):
    return np.fliplr(to_tensor(x))


def flipud(x):
    return np.flipud(to_tensor(x))


def rot90(array, k=1, axes=(0, 1)):
    array = to_tensor(array)
    if array.ndim < 2:
        raise ValueError(
            f"rot90 expects an input of rank 2 or more. Received: shape {array.shape}."
        )
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"rot90 expects `axes` to name two different axes. Received: {axes}.")
    return np.rot90(array, k=k, axes=tuple(axes))


def roll(x, shift, axis=None):
    return np.roll(to_tensor(x), shift, axis=axis_arg(axis))


def copy(x):
    return np.copy(to_tensor(x))


def view(x, dtype=None):
    x = to_tensor(x)
    if dtype is None:
        return x.view()
    return x.view(to_numpy_dtype(dtype))


def nonzero(x):
    return tuple(cast(i, "int32") for i in np.nonzero(to_tensor(x)))


def unravel_index(indices, shape):
    indices = to_tensor(indices)
    dtype = result_type(indices.dtype)
    return tuple(cast(i, dtype) for i in np.unravel_index(indices, tuple(shape)))
