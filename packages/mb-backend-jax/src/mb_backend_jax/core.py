"""The ``core`` contract module of the JAX backend.

Tensors are ``jax.Array``; control flow is ``jax.lax``; variables are
``mb_ops.Variable`` holding a ``jax.Array`` (see ``Variable``).
"""

import contextlib

import jax

from mb_backend_jax._control_flow import associative_scan as associative_scan
from mb_backend_jax._control_flow import cond as cond
from mb_backend_jax._control_flow import fori_loop as fori_loop
from mb_backend_jax._control_flow import map as map
from mb_backend_jax._control_flow import scan as scan
from mb_backend_jax._control_flow import switch as switch
from mb_backend_jax._control_flow import vectorized_map as vectorized_map
from mb_backend_jax._control_flow import while_loop as while_loop
from mb_backend_jax._convert import cast as cast
from mb_backend_jax._convert import convert_to_numpy as convert_to_numpy
from mb_backend_jax._convert import convert_to_tensor as convert_to_tensor
from mb_backend_jax._convert import is_tensor as is_tensor
from mb_backend_jax._convert import shape as shape
from mb_backend_jax._device import device_scope as device_scope
from mb_backend_jax._device import placement as placement
from mb_backend_jax._gradients import custom_gradient as custom_gradient
from mb_backend_jax._gradients import remat as remat
from mb_backend_jax._gradients import stop_gradient as stop_gradient
from mb_backend_jax._indexing import scatter as scatter
from mb_backend_jax._indexing import scatter_update as scatter_update
from mb_backend_jax._indexing import slice as slice
from mb_backend_jax._indexing import slice_update as slice_update
from mb_backend_jax._indexing import unstack as unstack
from mb_backend_jax._spec import compute_output_spec as compute_output_spec
from mb_backend_jax._spec import refused_symbolic as refused_symbolic
from mb_backend_jax._variable import Variable as Variable

UNSUPPORTED = {}

SUPPORTS_SPARSE_TENSORS = False

SUPPORTS_RAGGED_TENSORS = False

SUPPORTS_COMPLEX_DTYPES = True

IS_THREAD_SAFE = True


def random_seed_dtype():
    """JAX random keys are ``uint32`` pairs."""
    return "uint32"


@contextlib.contextmanager
def name_scope(name, **kwargs):
    """A JAX named scope (names the operations in profiles and HLO dumps)."""
    with jax.named_scope(name):
        yield
