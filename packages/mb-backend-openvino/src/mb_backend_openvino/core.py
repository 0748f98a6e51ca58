"""Tensors of the OpenVINO backend, conversion, Variable, control flow, scatter and slices.

Tensors are `OpenVINOTensor`: NumPy buffers in, OpenVINO inference out. Every op
runs a small compiled OpenVINO model, cached by signature (see ``_engine``).
"""

import contextlib

from mb_backend_openvino import _dtypes, _tensor
from mb_backend_openvino import numpy as _numpy
from mb_backend_openvino._control_flow import associative_scan as associative_scan
from mb_backend_openvino._control_flow import cond as cond
from mb_backend_openvino._control_flow import fori_loop as fori_loop
from mb_backend_openvino._control_flow import map as map
from mb_backend_openvino._control_flow import scan as scan
from mb_backend_openvino._control_flow import switch as switch
from mb_backend_openvino._control_flow import vectorized_map as vectorized_map
from mb_backend_openvino._control_flow import while_loop as while_loop
from mb_backend_openvino._convert import cast_tensor, to_tensor
from mb_backend_openvino._convert import convert_to_numpy as convert_to_numpy
from mb_backend_openvino._convert import convert_to_tensor as convert_to_tensor
from mb_backend_openvino._convert import is_tensor as is_tensor
from mb_backend_openvino._graph import canonical_axis, const, cv, i64, opset, run
from mb_backend_openvino._spec import compute_output_spec as compute_output_spec
from mb_backend_openvino._tensor import OpenVINOTensor as OpenVINOTensor
from mb_backend_openvino._variable import Variable as Variable
from mb_backend_openvino.numpy._indexing import get_item

# Tensor operators and indexing run the backend's own ops.
_tensor.set_operator_namespace(_numpy, get_item)

SUPPORTS_SPARSE_TENSORS = False
SUPPORTS_RAGGED_TENSORS = False
SUPPORTS_COMPLEX_DTYPES = False
IS_THREAD_SAFE = True

# Every core function runs; nothing is declared unsupported.
UNSUPPORTED = {}


def shape(x):
    """The shape of ``x`` as a tuple (None for dynamic dims of a traced tensor)."""
    return tuple(to_tensor(x).shape)


def cast(x, dtype):
    """``x`` converted to ``dtype`` by OpenVINO."""
    dtype = _dtypes.standardize_dtype(dtype)
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else cast_tensor(x, dtype)


def random_seed_dtype():
    """Seeds are int32 pairs: OpenVINO's CPU computes unsigned 32-bit ints as signed."""
    return "int32"


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


def stop_gradient(variable):
    """Identity: OpenVINO computes no gradients."""
    return to_tensor(variable)


class custom_gradient:
    """Decorator for a function returning ``(outputs, grad_fn)``.

    The OpenVINO backend computes no gradients, so the forward outputs are
    returned and ``grad_fn`` is never called.
    """

    def __init__(self, fun):
        self.fun = fun

    def __call__(self, *args, **kwargs):
        outputs, _ = self.fun(*args, **kwargs)
        return outputs


@contextlib.contextmanager
def device_scope(device_name):
    """Run the block on ``device_name``; only the CPU is available to this backend."""
    kind = str(device_name).split(":")[0].lower()
    if kind not in ("cpu",):
        raise ValueError(
            f"device_scope received {device_name!r}, but the openvino backend runs on the "
            "CPU only (cpu:0)."
        )
    yield


def remat(f):
    """Identity: rematerialization saves memory during backprop, which never runs here."""
    return f
