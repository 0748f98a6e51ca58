"""Changing shape and layout: reshape, transpose, axes, squeeze, broadcast, flips, rolls,
tiling, views and copies."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.numpy._common import axis_arg, unary
from mb_ops import dtypes


def reshape(x, newshape):
    """``x`` with shape ``newshape`` (one entry may be -1)."""
    return jnp.reshape(convert_to_tensor(x), newshape)


def ravel(x):
    """``x`` flattened to 1-D."""
    return jnp.ravel(convert_to_tensor(x))


def transpose(x, axes=None):
    """``x`` with its axes permuted (reversed when ``axes`` is None)."""
    return jnp.transpose(convert_to_tensor(x), axes=axes)


def expand_dims(x, axis):
    """``x`` with a new axis of size 1 at ``axis`` (an int or tuple)."""
    return jnp.expand_dims(convert_to_tensor(x), axis_arg(axis))


def squeeze(x, axis=None):
    """``x`` without its size-1 axes (only ``axis`` when given)."""
    return jnp.squeeze(convert_to_tensor(x), axis=axis_arg(axis))


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape``."""
    return jnp.broadcast_to(convert_to_tensor(x), shape)


def moveaxis(x, source, destination):
    """``x`` with axes ``source`` moved to ``destination``."""
    return jnp.moveaxis(convert_to_tensor(x), source, destination)


def swapaxes(x, axis1, axis2):
    """``x`` with two axes exchanged."""
    return jnp.swapaxes(convert_to_tensor(x), axis1, axis2)


def flip(x, axis=None):
    """``x`` reversed along ``axis`` (all axes when None)."""
    return jnp.flip(convert_to_tensor(x), axis=axis_arg(axis))


def fliplr(x):
    """``x`` reversed along axis 1."""
    return jnp.fliplr(convert_to_tensor(x))


def flipud(x):
    """``x`` reversed along axis 0."""
    return jnp.flipud(convert_to_tensor(x))


def rot90(array, k=1, axes=(0, 1)):
    """``array`` rotated by 90 degrees ``k`` times in the plane ``axes``."""
    array = convert_to_tensor(array)
    if array.ndim < 2:
        raise ValueError(f"rot90 expects an input of rank 2 or more. Received shape {array.shape}.")
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"rot90 expects two different axes. Received axes={axes}.")
    return jnp.rot90(array, k=k, axes=tuple(axes))


def roll(x, shift, axis=None):
    """``x`` with elements shifted cyclically along ``axis``."""
    return jnp.roll(convert_to_tensor(x), shift, axis=axis_arg(axis))


def tile(x, repeats):
    """``x`` repeated ``repeats`` times along each axis."""
    return jnp.tile(convert_to_tensor(x), repeats)


def repeat(x, repeats, axis=None):
    """Each element of ``x`` repeated ``repeats`` times."""
    x = convert_to_tensor(x)
    if not isinstance(repeats, int):
        repeats = convert_to_tensor(repeats)
    return jnp.repeat(x, repeats, axis=axis)


def ndim(x):
    """The number of axes of ``x``."""
    return jnp.ndim(convert_to_tensor(x))


def size(x):
    """The number of elements of ``x``."""
    return jnp.size(convert_to_tensor(x))


def view(x, dtype=None):
    """The bytes of ``x`` reinterpreted as ``dtype``."""
    x = convert_to_tensor(x)
    if dtype is None:
        return x
    return x.view(dtypes.standardize_dtype(dtype))


def unravel_index(indices, shape):
    """Flat ``indices`` as a tuple of coordinate arrays into ``shape``."""
    return jnp.unravel_index(convert_to_tensor(indices), shape)


copy = unary(jnp.copy, "copy")


def nonzero(x):
    """The indices of the non-zero elements, one array per axis."""
    return jnp.nonzero(convert_to_tensor(x))
