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
from mb_ops import numpy_shaped, tree


def _parameters(structure):
    def make(x):
        if isinstance(x, mb_ops.KerasTensor):
            shape = ov.PartialShape([-1 if d is None else d for d in x.shape])
            node = ov.op.Parameter(ov_type(standardize_dtype(x.dtype)), shape)
            return OpenVINOTensor(output=node.output(0))
        return x

    return tree.map_structure(make, structure)


def _spec(x):
    if isinstance(x, OpenVINOTensor):
        return mb_ops.KerasTensor(x.shape, dtype=x.dtype)
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
        return numpy_shaped.spec_by_running(fn, args, kwargs, _zeros, _is_tensor)


def _zeros(shape, dtype):
    return OpenVINOTensor(np.zeros(shape, dtype=to_numpy_dtype(dtype)))


def _is_tensor(x):
    return isinstance(x, OpenVINOTensor)
