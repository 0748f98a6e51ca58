"""The ``core`` contract module of the JAX backend.

Tensors are ``jax.Array``; control flow is ``jax.lax``; variables are
``mb_ops.Variable`` holding a ``jax.Array`` (see ``Variable``).
"""

from mb_backend_jax.core._control_flow import associative_scan as associative_scan
from mb_backend_jax.core._control_flow import cond as cond
from mb_backend_jax.core._control_flow import fori_loop as fori_loop
from mb_backend_jax.core._control_flow import map as map
from mb_backend_jax.core._control_flow import scan as scan
from mb_backend_jax.core._control_flow import switch as switch
from mb_backend_jax.core._control_flow import vectorized_map as vectorized_map
from mb_backend_jax.core._control_flow import while_loop as while_loop
from mb_backend_jax.core._convert import IS_THREAD_SAFE as IS_THREAD_SAFE
from mb_backend_jax.core._convert import SUPPORTS_COMPLEX_DTYPES as SUPPORTS_COMPLEX_DTYPES
from mb_backend_jax.core._convert import SUPPORTS_RAGGED_TENSORS as SUPPORTS_RAGGED_TENSORS
from mb_backend_jax.core._convert import SUPPORTS_SPARSE_TENSORS as SUPPORTS_SPARSE_TENSORS
from mb_backend_jax.core._convert import cast as cast
from mb_backend_jax.core._convert import convert_to_numpy as convert_to_numpy
from mb_backend_jax.core._convert import convert_to_tensor as convert_to_tensor
from mb_backend_jax.core._convert import is_tensor as is_tensor
from mb_backend_jax.core._convert import random_seed_dtype as random_seed_dtype
from mb_backend_jax.core._convert import shape as shape
from mb_backend_jax.core._indexing import scatter as scatter
from mb_backend_jax.core._indexing import scatter_update as scatter_update
from mb_backend_jax.core._indexing import slice as slice
from mb_backend_jax.core._indexing import slice_update as slice_update
from mb_backend_jax.core._indexing import unstack as unstack
from mb_backend_jax.core._transforms import compute_output_spec as compute_output_spec
from mb_backend_jax.core._transforms import custom_gradient as custom_gradient
from mb_backend_jax.core._transforms import device_scope as device_scope
from mb_backend_jax.core._transforms import name_scope as name_scope
from mb_backend_jax.core._transforms import remat as remat
from mb_backend_jax.core._transforms import stop_gradient as stop_gradient
from mb_backend_jax.core._variable import Variable as Variable

UNSUPPORTED = {}
