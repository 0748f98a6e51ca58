"""Tensors of the OpenVINO backend, conversion, Variable, control flow, scatter and slices.

Tensors are `OpenVINOTensor`: NumPy buffers in, OpenVINO inference out. Every op
runs a small compiled OpenVINO model, cached by signature (see ``_engine``).
"""

from mb_backend_openvino import _tensor
from mb_backend_openvino import numpy as _numpy
from mb_backend_openvino._control_flow import associative_scan as associative_scan
from mb_backend_openvino._control_flow import cond as cond
from mb_backend_openvino._control_flow import fori_loop as fori_loop
from mb_backend_openvino._control_flow import map as map
from mb_backend_openvino._control_flow import scan as scan
from mb_backend_openvino._control_flow import switch as switch
from mb_backend_openvino._control_flow import vectorized_map as vectorized_map
from mb_backend_openvino._control_flow import while_loop as while_loop
from mb_backend_openvino._convert import cast as cast
from mb_backend_openvino._convert import convert_to_numpy as convert_to_numpy
from mb_backend_openvino._convert import convert_to_tensor as convert_to_tensor
from mb_backend_openvino._convert import is_tensor as is_tensor
from mb_backend_openvino._convert import shape as shape
from mb_backend_openvino._device import device_scope as device_scope
from mb_backend_openvino._gradients import custom_gradient as custom_gradient
from mb_backend_openvino._gradients import remat as remat
from mb_backend_openvino._gradients import stop_gradient as stop_gradient
from mb_backend_openvino._indexing import scatter as scatter
from mb_backend_openvino._indexing import scatter_update as scatter_update
from mb_backend_openvino._indexing import slice as slice
from mb_backend_openvino._indexing import slice_update as slice_update
from mb_backend_openvino._indexing import unstack as unstack
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


def random_seed_dtype():
    """Seeds are int32 pairs: OpenVINO's CPU computes unsigned 32-bit ints as signed."""
    return "int32"
