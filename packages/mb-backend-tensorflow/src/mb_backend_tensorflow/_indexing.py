"""Scatter, slice and unstack: the indexing primitives of ``core``."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor as convert_to_tensor
from mb_backend_tensorflow._convert import shape as shape


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices`` (duplicates sum)."""
    values = convert_to_tensor(values)
    indices = convert_to_tensor(indices)
    return tf.scatter_nd(indices, values, shape)


def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with ``updates`` written (or combined by ``reduction``) at ``indices``."""
    inputs = convert_to_tensor(inputs)
    indices = convert_to_tensor(indices)
    updates = tf.cast(convert_to_tensor(updates), inputs.dtype)
    if reduction is None:
        return tf.tensor_scatter_nd_update(inputs, indices, updates)
    if reduction == "add":
        return tf.tensor_scatter_nd_add(inputs, indices, updates)
    if reduction == "max":
        return tf.tensor_scatter_nd_max(inputs, indices, updates)
    if reduction == "min":
        return tf.tensor_scatter_nd_min(inputs, indices, updates)
    if reduction == "mul":
        # No tensor_scatter_nd_mul: multiply in log-free form through a scattered
        # product of ones (duplicates multiply, as in JAX).
        factors = tf.ones_like(inputs)

        def body(i, acc):
            idx = indices[i : i + 1]
            return i + 1, tf.tensor_scatter_nd_update(
                acc, idx, tf.gather_nd(acc, idx) * updates[i : i + 1]
            )

        _, factors = tf.while_loop(lambda i, _: i < tf.shape(indices)[0], body, (0, factors))
        return inputs * factors
    raise ValueError(
        f"scatter_update got reduction={reduction!r}. Expected None, 'add', 'max', 'min' or 'mul'."
    )


def slice(inputs, start_indices, shape):
    """The block of ``inputs`` of size ``shape`` starting at ``start_indices``."""
    return tf.slice(convert_to_tensor(inputs), start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block starting at ``start_indices`` replaced by ``updates``."""
    inputs = convert_to_tensor(inputs)
    updates = tf.cast(convert_to_tensor(updates), inputs.dtype)
    start = tf.cast(convert_to_tensor(start_indices), "int32")
    # Clamp like XLA's dynamic_update_slice so the block fits.
    start = tf.clip_by_value(start, 0, tf.shape(inputs) - tf.shape(updates))
    grids = tf.meshgrid(*[tf.range(n) for n in tf.unstack(tf.shape(updates))], indexing="ij")
    if not grids:
        return updates
    index = tf.stack([g + start[i] for i, g in enumerate(grids)], axis=-1)
    return tf.tensor_scatter_nd_update(inputs, index, updates)


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis``, as a list."""
    return tf.unstack(convert_to_tensor(x), num=num, axis=axis)
