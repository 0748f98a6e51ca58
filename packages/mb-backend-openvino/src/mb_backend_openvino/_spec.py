"""Shape inference: trace a function into OpenVINO nodes, or run it on placeholders.

The first attempt feeds ``Parameter`` nodes (unknown dims stay dynamic) and
reads shapes and dtypes from OpenVINO's own shape inference, running nothing.
Code that needs values (Python branching on a tensor) or a builder that needs
static dims makes it fall back to running on zero-filled placeholders, twice
with different stand-ins for unknown dims, as the numpy backend does.
"""

import numpy as np
import openvino as ov

import mb_ops
from mb_backend_openvino._dtypes import ov_type, standardize_dtype, to_numpy_dtype
from mb_backend_openvino._engine import NeedsStaticShape
from mb_backend_openvino._tensor import OpenVINOTensor, SymbolicValueError
from mb_ops import tree

_FILL_A, _FILL_B = 83, 89


def _parameters(structure):
    def make(x):
        if isinstance(x, mb_ops.KerasTensor):
            shape = ov.PartialShape([-1 if d is None else d for d in x.shape])
            node = ov.op.Parameter(ov_type(standardize_dtype(x.dtype)), shape)
            return OpenVINOTensor(output=node.output(0))
        return x

    return tree.map_structure(make, structure)


def _placeholders(structure, fill):
    def make(x):
        if isinstance(x, mb_ops.KerasTensor):
            shape = tuple(fill if d is None else d for d in x.shape)
            return OpenVINOTensor(np.zeros(shape, dtype=to_numpy_dtype(x.dtype)))
        return x

    return tree.map_structure(make, structure)


def _spec(x, shape=None):
    if isinstance(x, OpenVINOTensor):
        return mb_ops.KerasTensor(x.shape if shape is None else shape, dtype=x.dtype)
    return x


def compute_output_spec(fn, *args, **kwargs):
    """The KerasTensor(s) ``fn`` returns for symbolic ``args``/``kwargs``."""
    with mb_ops.StatelessScope(), mb_ops.SymbolicScope():
        try:
            traced_args, traced_kwargs = _parameters((args, kwargs))
            outputs = fn(*traced_args, **traced_kwargs)
            return tree.map_structure(_spec, outputs)
        except (NeedsStaticShape, SymbolicValueError, RuntimeError, TypeError):
            pass
        return _by_running(fn, args, kwargs)


def _by_running(fn, args, kwargs):
    leaves = tree.flatten((args, kwargs))
    unknown = any(isinstance(x, mb_ops.KerasTensor) and None in x.shape for x in leaves)
    a_args, a_kwargs = _placeholders((args, kwargs), _FILL_A)
    outputs = fn(*a_args, **a_kwargs)
    flat = tree.flatten(outputs)
    shapes = [tuple(x.shape) if isinstance(x, OpenVINOTensor) else None for x in flat]
    if unknown:
        b_args, b_kwargs = _placeholders((args, kwargs), _FILL_B)
        other = tree.flatten(fn(*b_args, **b_kwargs))
        shapes = [
            _merge(s, tuple(o.shape)) if s is not None else None
            for s, o in zip(shapes, other, strict=True)
        ]
    specs = [_spec(x, shape) for x, shape in zip(flat, shapes, strict=True)]
    return tree.pack_sequence_as(outputs, specs)


def _merge(first, second):
    if len(first) != len(second):
        return None
    return tuple(a if a == b else None for a, b in zip(first, second, strict=True))
