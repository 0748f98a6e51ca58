"""Scatter, slice and unstack: the indexing primitives of ``core``."""

import builtins

import numpy as np

from mb_backend_numpy._convert import to_tensor


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices`` (duplicates sum)."""
    indices = to_tensor(indices)
    values = to_tensor(values)
    shape = tuple(int(d) for d in shape)
    out = np.zeros(shape, dtype=values.dtype)
    depth = indices.shape[-1]
    indices = indices.reshape(-1, depth)
    values = values.reshape((-1, *shape[depth:]))
    np.add.at(out, tuple(indices.T), values)
    return out


_REDUCERS = {"add": np.add, "max": np.maximum, "min": np.minimum, "mul": np.multiply}


def scatter_update(inputs, indices, updates, reduction=None):
    """A copy of ``inputs`` with ``updates`` written (or reduced) at ``indices``."""
    out = np.array(to_tensor(inputs))
    index = tuple(np.asarray(to_tensor(indices)).T)
    updates = to_tensor(updates).astype(out.dtype, copy=False)
    if reduction is None:
        out[index] = updates
        return out
    reducer = _REDUCERS.get(reduction)
    if reducer is None:
        raise ValueError(
            f"Unsupported scatter_update reduction {reduction!r}. "
            f"Expected None or one of {', '.join(_REDUCERS)}."
        )
    reducer.at(out, index, updates)
    return out


def _window(inputs, start_indices, sizes):
    if len(start_indices) != len(sizes) or len(sizes) != inputs.ndim:
        raise ValueError(
            "slice expects one start index and one size per axis of the input. "
            f"Received: input rank {inputs.ndim}, start_indices={start_indices!r}, "
            f"shape={sizes!r}."
        )
    window = []
    for start, size, dim in zip(start_indices, sizes, inputs.shape, strict=False):
        size = int(size)
        # As in jax.lax.dynamic_slice: the window is moved back inside the array.
        start = min(max(int(start), 0), max(dim - size, 0))
        window.append(builtins.slice(start, start + size))
    return tuple(window)


def slice(inputs, start_indices, shape):
    """The block of ``inputs`` of size ``shape`` starting at ``start_indices``."""
    inputs = to_tensor(inputs)
    start_indices = np.asarray(to_tensor(start_indices)).tolist()
    return inputs[_window(inputs, start_indices, tuple(shape))].copy()


def slice_update(inputs, start_indices, updates):
    """A copy of ``inputs`` with the block at ``start_indices`` replaced by ``updates``."""
    out = np.array(to_tensor(inputs))
    updates = to_tensor(updates)
    start_indices = np.asarray(to_tensor(start_indices)).tolist()
    out[_window(out, start_indices, updates.shape)] = updates
    return out


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis``, as a list."""
    x = np.moveaxis(to_tensor(x), axis, 0)
    return [x[i] for i in range(x.shape[0])]
