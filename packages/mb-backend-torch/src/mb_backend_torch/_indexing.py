"""Scatter, slice and unstack: the indexing primitives of ``core``."""

import torch

from mb_backend_torch._convert import convert_to_tensor, to_tensor

_INDEX_REDUCE = {"max": "amax", "min": "amin", "mul": "prod"}


def scatter(indices, values, shape):
    """A tensor of ``shape``, zeros except ``values`` summed at ``indices`` (last axis = coords)."""
    indices = convert_to_tensor(indices, "int64")
    values = to_tensor(values)
    shape = tuple(int(s) for s in shape)
    out = torch.zeros(shape, dtype=values.dtype, device=values.device)
    depth = indices.shape[-1]
    flat_indices = indices.reshape(-1, depth).to(values.device)
    flat_values = values.reshape(-1, *shape[depth:])
    out.index_put_(tuple(flat_indices.T), flat_values, accumulate=True)
    return out


def _linear_index(indices, shape):
    depth = indices.shape[-1]
    strides = []
    stride = 1
    for size in reversed(shape[:depth]):
        strides.append(stride)
        stride *= size
    strides = torch.tensor(strides[::-1], dtype=torch.int64, device=indices.device)
    return (indices * strides).sum(-1), stride


def scatter_update(inputs, indices, updates, reduction=None):
    """A copy of ``inputs`` with ``updates`` written (or add/max/min/mul-reduced) at ``indices``."""
    inputs = to_tensor(inputs)
    indices = convert_to_tensor(indices, "int64").to(inputs.device)
    updates = convert_to_tensor(updates, inputs.dtype)
    depth = indices.shape[-1]
    flat_indices = indices.reshape(-1, depth)
    flat_updates = updates.reshape(-1, *inputs.shape[depth:])
    outputs = inputs.clone()
    if reduction is None:
        outputs[tuple(flat_indices.T)] = flat_updates
        return outputs
    if reduction == "add":
        outputs.index_put_(tuple(flat_indices.T), flat_updates, accumulate=True)
        return outputs
    mode = _INDEX_REDUCE.get(reduction)
    if mode is None:
        raise ValueError(
            f"scatter_update's reduction must be None, 'add', 'max', 'min' or 'mul'. "
            f"Received: {reduction!r}."
        )
    linear, rows = _linear_index(flat_indices, tuple(inputs.shape))
    view = outputs.reshape(rows, *inputs.shape[depth:])
    index = linear.reshape(-1, *([1] * (flat_updates.ndim - 1))).expand_as(flat_updates)
    view.scatter_reduce_(0, index, flat_updates, mode, include_self=True)
    return view.reshape(inputs.shape)


def _as_ints(values):
    if isinstance(values, torch.Tensor):
        return [int(v) for v in values.tolist()]
    return [int(v) for v in values]


def slice(inputs, start_indices, shape):
    """``inputs[start:start+shape]`` along every axis."""
    inputs = to_tensor(inputs)
    starts = _as_ints(start_indices)
    sizes = _as_ints(shape)
    result = inputs
    for axis, (start, size) in enumerate(zip(starts, sizes, strict=True)):
        result = result.narrow(axis, start, size)
    return result


def slice_update(inputs, start_indices, updates):
    """A copy of ``inputs`` with ``updates`` written at ``start_indices``."""
    inputs = to_tensor(inputs)
    updates = convert_to_tensor(updates, inputs.dtype)
    starts = _as_ints(start_indices)
    outputs = inputs.clone()
    target = outputs
    for axis, (start, size) in enumerate(zip(starts, updates.shape, strict=True)):
        target = target.narrow(axis, start, size)
    target.copy_(updates)
    return outputs


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis``, as a list."""
    return list(to_tensor(x).unbind(axis))
