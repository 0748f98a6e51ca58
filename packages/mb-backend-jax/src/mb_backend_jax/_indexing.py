"""Scatter, slice and unstack: the indexing primitives of ``core``."""

import jax
import jax.numpy as jnp

from mb_backend_jax._convert import convert_to_tensor

_SCATTER_REDUCTIONS = (None, "add", "max", "min", "mul")


def _index_tuple(indices):
    # (N, k) indices -> k index arrays, one per leading dimension.
    indices = convert_to_tensor(indices)
    return tuple(jnp.moveaxis(indices, -1, 0))


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices`` (N, k)."""
    values = convert_to_tensor(values)
    zeros = jnp.zeros(shape, values.dtype)
    return zeros.at[_index_tuple(indices)].add(values)


def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with ``updates`` written (or reduced) at ``indices`` (N, k)."""
    if reduction not in _SCATTER_REDUCTIONS:
        raise ValueError(
            f"scatter_update expects reduction in {_SCATTER_REDUCTIONS}. "
            f"Received: reduction={reduction!r}."
        )
    inputs = convert_to_tensor(inputs)
    updates = convert_to_tensor(updates, dtype=inputs.dtype)
    at = inputs.at[_index_tuple(indices)]
    if reduction is None:
        return at.set(updates)
    if reduction == "add":
        return at.add(updates)
    if reduction == "max":
        return at.max(updates)
    if reduction == "min":
        return at.min(updates)
    return at.multiply(updates)


def slice(inputs, start_indices, shape):
    """The block of ``shape`` starting at ``start_indices`` (``-1``: to the end)."""
    inputs = convert_to_tensor(inputs)
    if isinstance(shape, jax.Array):
        shape = shape.tolist()
    sizes = tuple(
        inputs.shape[i] - int(start_indices[i]) if int(s) == -1 else int(s)
        for i, s in enumerate(shape)
    )
    return jax.lax.dynamic_slice(inputs, tuple(start_indices), sizes)


def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block at ``start_indices`` replaced by ``updates``."""
    inputs = convert_to_tensor(inputs)
    updates = convert_to_tensor(updates, dtype=inputs.dtype)
    return jax.lax.dynamic_update_slice(inputs, updates, tuple(start_indices))


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis``, as a list."""
    x = convert_to_tensor(x)
    count = x.shape[axis]
    if num is not None and num != count:
        raise ValueError(
            f"unstack received num={num} but axis {axis} of the input has {count} "
            f"elements (shape {x.shape}). Pass num=None or the matching size."
        )
    return [jax.lax.index_in_dim(x, i, axis, keepdims=False) for i in range(count)]
