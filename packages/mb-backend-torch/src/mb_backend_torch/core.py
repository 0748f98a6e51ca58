"""Tensors, conversion, Variable, control flow and the other core primitives (torch).

Mirrors ``keras/src/backend/torch/core.py``: same names and signatures.
"""

from mb_backend_torch._control_flow import associative_scan as associative_scan
from mb_backend_torch._control_flow import cond as cond
from mb_backend_torch._control_flow import fori_loop as fori_loop
from mb_backend_torch._control_flow import map as map
from mb_backend_torch._control_flow import scan as scan
from mb_backend_torch._control_flow import switch as switch
from mb_backend_torch._control_flow import vectorized_map as vectorized_map
from mb_backend_torch._control_flow import while_loop as while_loop
from mb_backend_torch._convert import cast as cast
from mb_backend_torch._convert import convert_to_numpy as convert_to_numpy
from mb_backend_torch._convert import convert_to_tensor as convert_to_tensor
from mb_backend_torch._convert import is_tensor as is_tensor
from mb_backend_torch._convert import shape as shape
from mb_backend_torch._device import DEFAULT_DEVICE as DEFAULT_DEVICE
from mb_backend_torch._device import device_scope as device_scope
from mb_backend_torch._device import get_device as get_device
from mb_backend_torch._dtypes import TORCH_DTYPES as TORCH_DTYPES
from mb_backend_torch._dtypes import to_torch_dtype as to_torch_dtype
from mb_backend_torch._gradients import custom_gradient as custom_gradient
from mb_backend_torch._gradients import remat as remat
from mb_backend_torch._gradients import stop_gradient as stop_gradient
from mb_backend_torch._indexing import scatter as scatter
from mb_backend_torch._indexing import scatter_update as scatter_update
from mb_backend_torch._indexing import slice as slice
from mb_backend_torch._indexing import slice_update as slice_update
from mb_backend_torch._indexing import unstack as unstack
from mb_backend_torch._spec import compute_output_spec as compute_output_spec
from mb_backend_torch._variable import Variable as Variable

SUPPORTS_SPARSE_TENSORS = False
SUPPORTS_RAGGED_TENSORS = False
SUPPORTS_COMPLEX_DTYPES = True
IS_THREAD_SAFE = True

# Every core op is supported on torch.
UNSUPPORTED = {}


def random_seed_dtype():
    """Seeds are int64 on torch (it has no uint32); only their bit pattern matters."""
    return "int64"
