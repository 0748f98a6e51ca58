"""Tensors, conversion, ``Variable`` and control flow of the TensorFlow backend.

Tensors are ``tf.Tensor`` (a ``tf.Variable`` is accepted wherever a tensor is).
Every function here also works inside ``tf.function``.
"""

import contextlib
import re

import tensorflow as tf

import mb_ops
from mb_backend_tensorflow._control_flow import associative_scan as associative_scan
from mb_backend_tensorflow._control_flow import cond as cond
from mb_backend_tensorflow._control_flow import fori_loop as fori_loop
from mb_backend_tensorflow._control_flow import map as map
from mb_backend_tensorflow._control_flow import scan as scan
from mb_backend_tensorflow._control_flow import switch as switch
from mb_backend_tensorflow._control_flow import vectorized_map as vectorized_map
from mb_backend_tensorflow._control_flow import while_loop as while_loop
from mb_backend_tensorflow._conversion import cast as cast
from mb_backend_tensorflow._conversion import convert_to_numpy as convert_to_numpy
from mb_backend_tensorflow._conversion import convert_to_tensor as convert_to_tensor
from mb_backend_tensorflow._conversion import from_dlpack as from_dlpack
from mb_backend_tensorflow._conversion import is_tensor as is_tensor
from mb_backend_tensorflow._conversion import shape as shape
from mb_backend_tensorflow._conversion import to_dlpack as to_dlpack
from mb_backend_tensorflow._dtypes import standardize_dtype
from mb_backend_tensorflow._variable import Variable as Variable
from mb_ops import StatelessScope, SymbolicScope

# mb's ops take dense tensors only; sparse/ragged inputs are densified on entry.
SUPPORTS_SPARSE_TENSORS = False
SUPPORTS_RAGGED_TENSORS = False
SUPPORTS_COMPLEX_DTYPES = True
# TensorFlow's eager context is not safe to share across Python threads
# (tensorflow/tensorflow#78338), as Keras notes for its TF backend.
IS_THREAD_SAFE = False

UNSUPPORTED = {}


def compute_output_spec(fn, *args, **kwargs):
    """Trace ``fn`` on placeholders for the ``KerasTensor`` inputs; return output specs."""
    with StatelessScope(), SymbolicScope():
        graph = tf.__internal__.FuncGraph("mb_output_spec")
        with graph.as_default():

            def to_placeholder(x):
                if isinstance(x, mb_ops.KerasTensor):
                    return tf.compat.v1.placeholder(shape=x.shape, dtype=x.dtype)
                return x

            args, kwargs = tf.nest.map_structure(to_placeholder, (args, kwargs))
            out = fn(*args, **kwargs)

            def to_keras_tensor(x):
                if tf.is_tensor(x):
                    shape = None if x.shape.rank is None else tuple(x.shape.as_list())
                    return mb_ops.KerasTensor(shape, standardize_dtype(x.dtype))
                return x

            return tf.nest.map_structure(to_keras_tensor, out)


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices`` (duplicates sum)."""
    values = convert_to_tensor(values)
    indices = convert_to_tensor(indices)
    return tf.scatter_nd(indices, values, shape)


def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with ``updates`` written (or combined by ``reduction``) at ``indices``."""
    inputs = convert_to_tensor(inputs)
    indices = convert_to_tensor(indices)
    updates = tf.cast(convert_to_tensor(updates), inputs.dtype)
    if reduction is None:
        return tf.tensor_scatter_nd_update(inputs, indices, updates)
    if reduction == "add":
        return tf.tensor_scatter_nd_add(inputs, indices, updates)
    if reduction == "max":
        return tf.tensor_scatter_nd_max(inputs, indices, updates)
    if reduction == "min":
        return tf.tensor_scatter_nd_min(inputs, indices, updates)
    if reduction == "mul":
        # No tensor_scatter_nd_mul: multiply in log-free form through a scattered
        # product of ones (duplicates multiply, as in JAX).
        factors = tf.ones_like(inputs)

        def body(i, acc):
            idx = indices[i : i + 1]
            return i + 1, tf.tensor_scatter_nd_update(
                acc, idx, tf.gather_nd(acc, idx) * updates[i : i + 1]
            )

        _, factors = tf.while_loop(lambda i, _: i < tf.shape(indices)[0], body, (0, factors))
        return inputs * factors
    raise ValueError(
        f"scatter_update got reduction={reduction!r}. Expected None, 'add', 'max', 'min' or 'mul'."
    )


def slice(inputs, start_indices, shape):
    """The block of ``inputs`` of size ``shape`` starting at ``start_indices``."""
    return tf.slice(convert_to_tensor(inputs), start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block starting at ``start_indices`` replaced by ``updates``."""
    inputs = convert_to_tensor(inputs)
    updates = tf.cast(convert_to_tensor(updates), inputs.dtype)
    start = tf.cast(convert_to_tensor(start_indices), "int32")
    # Clamp like XLA's dynamic_update_slice so the block fits.
    start = tf.clip_by_value(start, 0, tf.shape(inputs) - tf.shape(updates))
    grids = tf.meshgrid(*[tf.range(n) for n in tf.unstack(tf.shape(updates))], indexing="ij")
    if not grids:
        return updates
    index = tf.stack([g + start[i] for i, g in enumerate(grids)], axis=-1)
    return tf.tensor_scatter_nd_update(inputs, index, updates)


def stop_gradient(variable):
    """``variable`` with no gradient flowing back through it."""
    return tf.stop_gradient(convert_to_tensor(variable))


def unstack(x, num=None, axis=0):
    """The slices of ``x`` along ``axis``, as a list."""
    return tf.unstack(convert_to_tensor(x), num=num, axis=axis)


def random_seed_dtype():
    """The dtype of seeds: TensorFlow's stateless ops take int32/int64, not uint32."""
    return "int64"


def custom_gradient(fun):
    """``fun`` returns ``(y, grad_fn)``; ``grad_fn(upstream)`` gives the input gradients."""
    return tf.custom_gradient(f=fun)


def remat(f):
    """``f`` recomputed on the backward pass instead of keeping its activations."""
    return tf.recompute_grad(f)


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


_DEVICE = re.compile(r"^/?(?:device:)?(cpu|gpu|tpu)(?::(\d+))?$", re.IGNORECASE)


def device_scope(device_name):
    """Place ops on ``device_name`` (``"cpu"``, ``"gpu:0"``, ``"/device:GPU:1"``)."""
    if device_name is None:
        return contextlib.nullcontext()
    if not isinstance(device_name, str):
        raise ValueError(
            f"device_scope expects a device name such as 'cpu:0' or 'gpu:0'. "
            f"Received: {device_name!r}."
        )
    match = _DEVICE.match(device_name.strip())
    if match is None:
        return tf.device(device_name)
    kind, index = match.group(1).upper(), match.group(2) or "0"
    return tf.device(f"/{kind}:{index}")
