"""Scatter, slice and unstack: the indexing primitives of ``core``."""

from mb_backend_openvino._convert import convert_to_tensor as convert_to_tensor
from mb_backend_openvino._convert import is_tensor as is_tensor
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import canonical_axis, const, cv, i64, opset, run

_REDUCTIONS = {None: "none", "add": "sum", "max": "max", "min": "min", "mul": "prod"}


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices`` (duplicates sum)."""
    indices, values = to_tensor(indices), to_tensor(values)
    shape = tuple(int(d) for d in shape)

    def build(idx, vals):
        zeros = opset.broadcast(const(0, values.dtype), i64(list(shape)))
        return opset.scatter_nd_update(zeros, cv(idx, "int32"), vals, "sum")

    return run(("scatter", shape), build, indices, values)


def scatter_update(inputs, indices, updates, reduction=None):
    """A copy of ``inputs`` with ``updates`` written (or reduced) at ``indices``."""
    mode = _REDUCTIONS.get(reduction)
    if mode is None:
        raise ValueError(
            f"Unsupported scatter_update reduction {reduction!r}. "
            f"Expected None or one of {', '.join(k for k in _REDUCTIONS if k)}."
        )
    inputs, indices, updates = to_tensor(inputs), to_tensor(indices), to_tensor(updates)
    dtype = inputs.dtype

    def build(data, idx, upd):
        return opset.scatter_nd_update(data, cv(idx, "int32"), cv(upd, dtype), mode)

    return run(("scatter_update", mode), build, inputs, indices, updates)


def _check_window(inputs, start_indices, sizes):
    if len(sizes) != inputs.ndim:
        raise ValueError(
            "slice expects one start index and one size per axis of the input. "
            f"Received: input rank {inputs.ndim}, start_indices={start_indices!r}, "
            f"shape={sizes!r}."
        )


def _clamped_starts(start, data, sizes):
    """As ``jax.lax.dynamic_slice``: starts moved so the window lies inside the array."""
    start = cv(start, "int64")
    dims = opset.shape_of(data, "i64")
    limit = opset.maximum(opset.subtract(dims, i64(list(sizes))), i64(0))
    return opset.minimum(opset.maximum(start, i64(0)), limit)


def slice(inputs, start_indices, shape):
    """The block of ``inputs`` of size ``shape`` starting at ``start_indices``."""
    inputs = to_tensor(inputs)
    sizes = tuple(int(d) for d in shape)
    _check_window(inputs, start_indices, sizes)
    starts = (
        convert_to_tensor(start_indices, dtype="int64")
        if not is_tensor(start_indices)
        else start_indices
    )

    def build(data, start):
        begin = _clamped_starts(start, data, sizes)
        end = opset.add(begin, i64(list(sizes)))
        return opset.slice(data, begin, end, i64([1] * len(sizes)))

    return run(("slice", sizes), build, inputs, starts)


def slice_update(inputs, start_indices, updates):
    """A copy of ``inputs`` with the block at ``start_indices`` replaced by ``updates``."""
    inputs, updates = to_tensor(inputs), to_tensor(updates)
    sizes = tuple(updates.shape)
    _check_window(inputs, start_indices, sizes)
    starts = (
        convert_to_tensor(start_indices, dtype="int64")
        if not is_tensor(start_indices)
        else start_indices
    )
    dtype = inputs.dtype

    def build(data, start, upd):
        begin = _clamped_starts(start, data, sizes)
        end = opset.add(begin, i64(list(sizes)))
        steps = i64([1] * len(sizes))
        return opset.slice_scatter(data, cv(upd, dtype), begin, end, steps)

    return run(("slice_update", sizes), build, inputs, starts, updates)


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis``, as a list."""
    x = to_tensor(x)
    ax = canonical_axis(axis, x.ndim, "unstack")
    n = x.shape[ax]
    if n is None:
        n = num
    if n == 0:
        return []

    def build(a):
        parts = opset.split(a, i64(ax), n)
        return [opset.squeeze(p, i64([ax])).output(0) for p in parts.outputs()]

    out = run(("unstack", ax, n), build, x)
    return list(out) if isinstance(out, tuple) else [out]
