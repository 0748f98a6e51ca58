"""Joining and splitting tensors: concatenate, stack, hstack/vstack/dstack, append and
split, array_split, hsplit/vsplit/dsplit."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor


def _tensors(xs):
    return [convert_to_tensor(x) for x in xs]


def concatenate(xs, axis=0):
    """``xs`` joined along an existing axis."""
    return jnp.concatenate(_tensors(xs), axis=axis)


def stack(x, axis=0):
    """The tensors ``x`` joined along a new axis."""
    return jnp.stack(_tensors(x), axis=axis)


def hstack(xs):
    """``xs`` joined column-wise."""
    return jnp.hstack(_tensors(xs))


def vstack(xs):
    """``xs`` joined row-wise."""
    return jnp.vstack(_tensors(xs))


def dstack(xs):
    """``xs`` joined along the third axis."""
    return jnp.dstack(_tensors(xs))


def append(x1, x2, axis=None):
    """``x2`` appended to ``x1`` (both flattened when ``axis`` is None)."""
    return jnp.append(convert_to_tensor(x1), convert_to_tensor(x2), axis=axis)


def split(x, indices_or_sections, axis=0):
    """``x`` split into equal sections or at indices along ``axis``."""
    return jnp.split(convert_to_tensor(x), indices_or_sections, axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """Like ``split`` but sections may differ in size by one."""
    return jnp.array_split(convert_to_tensor(x), indices_or_sections, axis=axis)


def hsplit(x, indices_or_sections):
    """``split`` along axis 1 (axis 0 for 1-D input)."""
    return jnp.hsplit(convert_to_tensor(x), indices_or_sections)


def vsplit(x, indices_or_sections):
    """``split`` along axis 0."""
    return jnp.vsplit(convert_to_tensor(x), indices_or_sections)


def dsplit(x, indices_or_sections):
    """``split`` along axis 2."""
    return jnp.dsplit(convert_to_tensor(x), indices_or_sections)
