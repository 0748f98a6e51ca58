"""Tensors, conversion, ``Variable`` and control flow of the TensorFlow backend.

Tensors are ``tf.Tensor`` (a ``tf.Variable`` is accepted wherever a tensor is).
Every function here also works inside ``tf.function``.
"""

import tensorflow as tf

from mb_backend_tensorflow._control_flow import associative_scan as associative_scan
from mb_backend_tensorflow._control_flow import cond as cond
from mb_backend_tensorflow._control_flow import fori_loop as fori_loop
from mb_backend_tensorflow._control_flow import map as map
from mb_backend_tensorflow._control_flow import scan as scan
from mb_backend_tensorflow._control_flow import switch as switch
from mb_backend_tensorflow._control_flow import vectorized_map as vectorized_map
from mb_backend_tensorflow._control_flow import while_loop as while_loop
from mb_backend_tensorflow._convert import cast as cast
from mb_backend_tensorflow._convert import convert_to_numpy as convert_to_numpy
from mb_backend_tensorflow._convert import convert_to_tensor as convert_to_tensor
from mb_backend_tensorflow._convert import from_dlpack as from_dlpack
from mb_backend_tensorflow._convert import is_tensor as is_tensor
from mb_backend_tensorflow._convert import shape as shape
from mb_backend_tensorflow._convert import to_dlpack as to_dlpack
from mb_backend_tensorflow._device import device_scope as device_scope
from mb_backend_tensorflow._device import placement as placement
from mb_backend_tensorflow._gradients import custom_gradient as custom_gradient
from mb_backend_tensorflow._gradients import remat as remat
from mb_backend_tensorflow._gradients import stop_gradient as stop_gradient
from mb_backend_tensorflow._indexing import scatter as scatter
from mb_backend_tensorflow._indexing import scatter_update as scatter_update
from mb_backend_tensorflow._indexing import slice as slice
from mb_backend_tensorflow._indexing import slice_update as slice_update
from mb_backend_tensorflow._indexing import unstack as unstack
from mb_backend_tensorflow._spec import compute_output_spec as compute_output_spec
from mb_backend_tensorflow._variable import Variable as Variable

# mb's ops take dense tensors only; sparse/ragged inputs are densified on entry.
SUPPORTS_SPARSE_TENSORS = False
SUPPORTS_RAGGED_TENSORS = False
SUPPORTS_COMPLEX_DTYPES = True
# TensorFlow's eager context is not safe to share across Python threads
# (tensorflow/tensorflow#78338), as Keras notes for its TF backend.
IS_THREAD_SAFE = False

UNSUPPORTED = {}


def random_seed_dtype():
    """The dtype of seeds: TensorFlow's stateless ops take int32/int64, not uint32."""
    return "int64"


class name_scope:
    """A name scope for ops created inside (``tf.name_scope``)."""

    def __init__(self, name, **kwargs):
        self.name = name
        self._scope = tf.name_scope(name)

    def __enter__(self):
        self._scope.__enter__()
        return self

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)
