"""How every op runs: a small OpenVINO model, compiled once per signature and cached.

An op is a *builder*: a Python function from ``openvino.Output`` nodes to the
output node(s), written with OpenVINO's opset. `run` calls it in one of two modes:

- **eager** (inputs hold values): the builder is applied to ``Parameter`` nodes,
  the model is compiled for the CPU and kept in an LRU cache keyed by the op's
  key (its static attributes), the inputs' element types and ranks (their full
  shapes when the op asks for ``static=True``) and a size class; each call only
  binds the inputs (zero-copy) and runs the cached infer request.
- **symbolic** (an input is being traced, see `_tensor.OpenVINOTensor`): the
  builder is applied directly and the result is a symbolic tensor, so whole
  functions can be traced into one model (shape inference, `training.jit`).

Models run with ``INFERENCE_PRECISION_HINT=f32`` so float32 is never lowered to
bfloat16 on CPUs that could; small inputs run on one thread, where OpenVINO's
thread hand-off costs more than it saves.
"""

import collections
import contextlib
import threading

import numpy as np
import openvino as ov
import openvino.opset16 as ov_opset

from mb_backend_openvino import _compat
from mb_backend_openvino._dtypes import BFLOAT16
from mb_backend_openvino._tensor import OpenVINOTensor

CORE = ov.Core()
DEVICE = "CPU"
_PRECISE = {"INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY"}
CONFIG_SMALL = {**_PRECISE, "INFERENCE_NUM_THREADS": 1}
CONFIG_LARGE = dict(_PRECISE)
LARGE_ELEMENTS = 1 << 16
"""Inputs with more elements than this (all together) run on every core."""

CACHE_SIZE = 4096
"""Compiled models kept; the least recently used beyond this are dropped."""


class NeedsStaticShape(Exception):
    """A builder needs a static dimension that a symbolic trace does not know."""


class _Kernel:
    __slots__ = ("inputs", "lock", "outputs", "request", "shapes", "single")

    def __init__(self, compiled, single):
        self.request = compiled.create_infer_request()
        self.outputs = len(compiled.outputs)
        self.single = single
        self.lock = threading.Lock()
        # The request's own input tensors and the shapes last given to them (reading
        # an ov.Tensor's shape back costs tens of microseconds).
        count = len(compiled.inputs)
        self.inputs = [self.request.get_input_tensor(i) for i in range(count)]
        self.shapes = [None] * count


_start = _compat.start_async  # the C++ method where it resolves
_NO_INPUTS = {}

_CACHE = collections.OrderedDict()
_CACHE_LOCK = threading.Lock()
STATS = {"compiled": 0, "calls": 0}


def _as_outputs(result):
    """A builder's result as (list of ``ov.Output``, whether it was a single one)."""
    if isinstance(result, list | tuple):
        return [r if isinstance(r, ov.Output) else r.output(0) for r in result], False
    if isinstance(result, ov.Output):
        return [result], True
    return [result.output(0)], True


def to_ov_tensor(array):
    """A zero-copy ``ov.Tensor`` view of a C-contiguous NumPy array."""
    if array.dtype == BFLOAT16:
        return ov.Tensor(array.view(np.uint16), list(array.shape), ov.Type.bf16)
    return ov.Tensor(array, shared_memory=True)


def from_ov_tensor(tensor):
    """A NumPy copy of an ``ov.Tensor`` (bfloat16 bytes re-read as ml-dtypes bfloat16)."""
    data = tensor.data
    if tensor.element_type == ov.Type.bf16:
        return data.view(np.uint16).copy().view(BFLOAT16)
    return data.copy()


def constant(array):
    """An ``ov`` Constant node holding ``array`` (its bytes are shared, not copied)."""
    if array.dtype == BFLOAT16:
        return ov.op.Constant(to_ov_tensor(np.ascontiguousarray(array)), shared_memory=False)
    return ov.op.Constant(np.ascontiguousarray(array), shared_memory=False)


def _compile(signature, build, arrays, static, large):
    params = []
    for index, array in enumerate(arrays):
        if array.dtype == BFLOAT16:
            element = ov.Type.bf16
        elif array.dtype == np.bool_:
            element = ov.Type.boolean
        else:
            element = ov.Type(array.dtype)
        fixed = static is True or (static and index in static)
        shape = ov.PartialShape(list(array.shape) if fixed else [-1] * array.ndim)
        params.append(ov.op.Parameter(element, shape))
    outputs, single = _as_outputs(build(*(p.output(0) for p in params)))
    config = CONFIG_LARGE if large else CONFIG_SMALL
    try:
        model = ov.Model([ov_opset.result(o) for o in outputs], params, str(signature[0])[:60])
        compiled = CORE.compile_model(model, DEVICE, config)
    except RuntimeError as error:
        raise RuntimeError(
            f"OpenVINO could not compile the op {signature[0]!r} for inputs "
            f"{[(str(a.dtype), a.shape) for a in arrays]}: {error}"
        ) from None
    STATS["compiled"] += 1
    return _Kernel(compiled, single)


def _lookup(signature, build, arrays, static, large):
    kernel = _CACHE.get(signature)
    if kernel is not None:
        # Least recently used first; another thread may have evicted it meanwhile.
        with contextlib.suppress(KeyError):
            _CACHE.move_to_end(signature)
        return kernel
    with _CACHE_LOCK:
        kernel = _CACHE.get(signature)
        if kernel is None:
            kernel = _compile(signature, build, arrays, static, large)
            _CACHE[signature] = kernel
            if len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
    return kernel


def run(key, build, *inputs, static=False):
    """Apply the op ``build`` to the tensors ``inputs``; returns one tensor or a tuple.

    Args:
        key: a hashable description of everything besides the inputs that
            ``build`` depends on (op name, axes, modes, target dtype, ...).
        build: ``build(*ov_outputs) -> ov node(s)``.
        *inputs: ``OpenVINOTensor`` operands (values or symbolic).
        static: compile for the inputs' exact shapes (True), or for those of the
            inputs at the given indices (a tuple): the builder reads their dims, or
            OpenVINO needs them (convolution weights). Otherwise only ranks are
            fixed and one model serves all sizes.
    """
    arrays = []
    elements = 0
    for x in inputs:
        data = x._data
        if data is None:
            return _run_symbolic(build, inputs)
        arrays.append(data)
        elements += data.size
    large = elements > LARGE_ELEMENTS
    if static is True:
        signature = (key, large, *[(a.dtype, a.shape) for a in arrays])
    elif static:
        signature = (
            key,
            large,
            *[(a.dtype, a.shape if i in static else a.ndim) for i, a in enumerate(arrays)],
        )
    else:
        signature = (key, large, *[(a.dtype, a.ndim) for a in arrays])
    kernel = _lookup(signature, build, arrays, static, large)
    STATS["calls"] += 1
    with kernel.lock:
        request = kernel.request
        if large:
            # Big inputs are bound zero-copy.
            for i, array in enumerate(arrays):
                request.set_input_tensor(i, to_ov_tensor(array))
        else:
            # Small ones are copied into the request's own buffers: binding new memory
            # costs OpenVINO more (~10 us per input) than copying a few KiB.
            for i, array in enumerate(arrays):
                _copy_in(kernel, i, array)
        try:
            # start_async + wait skips the Python wrapper of infer(), which builds a
            # dict of every output: a third of the cost of a small op.
            _start(request, _NO_INPUTS, None)
            request.wait()
        except RuntimeError as error:
            raise RuntimeError(
                f"OpenVINO failed to run the op {key!r} on inputs "
                f"{[(str(a.dtype), a.shape) for a in arrays]}: {error}"
            ) from None
        if kernel.single:
            return OpenVINOTensor(from_ov_tensor(request.get_output_tensor(0)))
        return tuple(
            OpenVINOTensor(from_ov_tensor(request.get_output_tensor(i)))
            for i in range(kernel.outputs)
        )


def _copy_in(kernel, i, array):
    """Write ``array`` into the request-owned input ``i`` (resized to its shape)."""
    tensor = kernel.inputs[i]
    if kernel.shapes[i] != array.shape:
        tensor.shape = array.shape
        kernel.shapes[i] = array.shape
    if not array.size:
        return
    if array.dtype == BFLOAT16:
        tensor.data.view(np.uint16)[...] = array.view(np.uint16)
    else:
        tensor.data[...] = array


def _run_symbolic(build, inputs):
    nodes = []
    for x in inputs:
        if x._data is None:
            nodes.append(x._output)
        else:
            nodes.append(constant(x._data).output(0))
    outputs, single = _as_outputs(build(*nodes))
    if single:
        return OpenVINOTensor(output=outputs[0])
    return tuple(OpenVINOTensor(output=o) for o in outputs)


def static_dims(output):
    """The static shape of ``output`` as a tuple of ints, or `NeedsStaticShape`."""
    shape = output.get_partial_shape()
    if not shape.is_static:
        raise NeedsStaticShape(f"the op needs static dimensions, the traced shape is {shape}")
    return tuple(shape.to_shape())


def rank(output):
    """The (static) rank of ``output``."""
    return output.get_partial_shape().rank.get_length()


def clear_cache():
    """Drop every compiled model (e.g. to free memory)."""
    with _CACHE_LOCK:
        _CACHE.clear()
