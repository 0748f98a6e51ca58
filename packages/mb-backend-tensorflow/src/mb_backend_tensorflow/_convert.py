"""Turning anything array-like into a ``tf.Tensor``, and back to NumPy.

Other engines' tensors (torch, jax) arrive through DLPack, which shares the
buffer instead of copying where TensorFlow allows it; mb ``Variable`` objects are
unwrapped to their ``.value``.
"""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow import _compat
from mb_backend_tensorflow._dtypes import is_int_dtype, standardize_dtype
from mb_ops import Variable as BaseVariable

_DLPACK_MODULES = ("torch", "jax", "jaxlib")
# The concrete class of eager tensors: the common case, checked first and fast.
_EAGER_TENSOR = _compat.EAGER_TENSOR


def _is_foreign_tensor(x):
    module = type(x).__module__.split(".", 1)[0]
    return module in _DLPACK_MODULES and hasattr(x, "__dlpack__")


# TensorFlow's kernels assume 64-byte aligned buffers (Tensor::IsAligned is a
# CHECK, not a fallback): an unaligned DLPack buffer aborts the process.
_TF_ALIGNMENT = 64


def _data_pointer(x):
    if type(x).__module__.startswith("torch"):
        return x.data_ptr()
    try:
        return x.unsafe_buffer_pointer()  # jax.Array
    except Exception:  # no single buffer (sharded, deleted, ...)
        return None


def from_dlpack(x):
    """A ``tf.Tensor`` sharing memory with another engine's tensor where possible.

    Shares the buffer when it is 64-byte aligned (what TF's kernels require);
    otherwise (a sliced torch tensor, a tensor that requires grad is first
    detached) the data is copied into a fresh aligned buffer.
    """
    is_torch = type(x).__module__.startswith("torch")
    if is_torch and getattr(x, "requires_grad", False):
        x = x.detach()
    pointer = _data_pointer(x)
    if pointer is None or pointer % _TF_ALIGNMENT:
        if is_torch:
            x = x.clone().contiguous()  # fresh storage: torch allocates 64-byte aligned
        else:
            return tf.convert_to_tensor(np.asarray(x))
    try:
        return tf.experimental.dlpack.from_dlpack(x.__dlpack__())
    except Exception:  # the producer or TF refused this buffer (layout, dtype): copy
        if is_torch:
            return tf.convert_to_tensor(x.cpu().numpy())
        return tf.convert_to_tensor(np.asarray(x))


def to_dlpack(x):
    """A DLPack capsule of a tensor, for another engine to read without a copy."""
    return tf.experimental.dlpack.to_dlpack(tf.convert_to_tensor(x))


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Convert ``x`` to a ``tf.Tensor`` of ``dtype`` (its own dtype when None).

    Python floats become float32-compatible tensors as in Keras: TensorFlow's own
    rules are stricter than NumPy's (no ints for bools or floats for ints), so
    such conversions go through a cast.
    """
    if type(x) is _EAGER_TENSOR and (dtype is None or x.dtype.name == dtype):
        return x
    if type(x) is np.ndarray and dtype is None and x.dtype.kind in "biufc":
        fast = _compat.numpy_to_eager(x)
        if fast is not None:
            return fast
    if isinstance(x, BaseVariable):
        x = x.value
    if isinstance(x, tf.SparseTensor) and not sparse:
        x = tf.sparse.to_dense(x)
    if isinstance(x, tf.RaggedTensor) and not ragged:
        x = x.to_tensor()
    if isinstance(x, tf.IndexedSlices):
        x = tf.convert_to_tensor(x)
    if dtype is not None:
        dtype = standardize_dtype(dtype)
    if _is_foreign_tensor(x):
        x = from_dlpack(x)
    if not tf.is_tensor(x):
        if dtype is not None and (dtype == "bool" or is_int_dtype(dtype)):
            return tf.cast(_plain_convert(x), dtype)
        if dtype is None:
            return _plain_convert(x)
        try:
            return tf.convert_to_tensor(x, dtype=dtype)
        except (TypeError, ValueError):
            return tf.cast(_plain_convert(x), dtype)
    if dtype is not None and standardize_dtype(x.dtype) != dtype:
        return tf.cast(x, dtype)
    if isinstance(x, tf.Variable):
        return x
    return x


def _plain_convert(x):
    if isinstance(x, np.ndarray | np.generic) or not isinstance(x, list | tuple):
        return tf.convert_to_tensor(x)
    # Nested Python lists may mix tensors and numbers: stack them.
    if any(tf.is_tensor(e) or isinstance(e, BaseVariable) for e in tf.nest.flatten(x)):
        return tf.stack([convert_to_tensor(e) for e in x])
    return tf.convert_to_tensor(x)


def convert_to_numpy(x):
    """A NumPy array holding the value of ``x`` (a copy when TF owns the memory)."""
    if isinstance(x, BaseVariable):
        x = x.value
    if isinstance(x, tf.SparseTensor):
        x = tf.sparse.to_dense(x)
    elif isinstance(x, tf.RaggedTensor):
        x = x.to_tensor()
    elif isinstance(x, tf.IndexedSlices):
        x = tf.convert_to_tensor(x)
    if tf.is_tensor(x):
        return x.numpy()
    return np.asarray(x)


def is_tensor(x):
    """Whether ``x`` is a TensorFlow tensor (or ``tf.Variable``)."""
    return tf.is_tensor(x)


def cast(x, dtype):
    """``x`` as a tensor of ``dtype``."""
    dtype = standardize_dtype(dtype)
    if isinstance(x, BaseVariable):
        x = x.value
    if not tf.is_tensor(x):
        return convert_to_tensor(x, dtype)
    if standardize_dtype(x.dtype) == dtype:
        return tf.identity(x) if isinstance(x, tf.Variable) else x
    return tf.cast(x, dtype)


def shape(x):
    """The shape as a tuple: ints where static, scalar tensors where only known at run time."""
    if isinstance(x, BaseVariable):
        return tuple(x.shape)
    if hasattr(x, "_keras_history") or type(x).__name__ == "KerasTensor":
        return tuple(x.shape)
    if not tf.is_tensor(x):
        x = convert_to_tensor(x)
    if x.shape.rank is None:
        raise ValueError(
            "shape() needs a tensor of known rank. Received a tensor of unknown rank; "
            "give the tf.function an input_signature with a rank."
        )
    dims = x.shape.as_list()
    if None in dims:
        dynamic = tf.shape(x)
        dims = [dynamic[i] if d is None else d for i, d in enumerate(dims)]
    return tuple(dims)
