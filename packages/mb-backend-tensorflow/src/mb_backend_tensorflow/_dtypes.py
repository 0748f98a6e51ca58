"""Dtype helpers shared by the modules of this backend.

Every dtype decision goes through ``mb_ops.dtypes`` so that the TensorFlow
backend promotes exactly like the others (Keras 3's JAX lattice with weak
Python scalars); this module only adds the TensorFlow-side conversions.
"""

import tensorflow as tf

from mb_ops import config
from mb_ops import dtypes as mb_dtypes

standardize_dtype = mb_dtypes.standardize_dtype
is_float_dtype = mb_dtypes.is_float_dtype
is_int_dtype = mb_dtypes.is_int_dtype


def floatx():
    return config.floatx()


def dtype_of(x):
    """The dtype of ``x`` for promotion: Python scalars stay weak (``int``, ``float``)."""
    kind = mb_dtypes.python_scalar_type(x)
    if kind is not None:
        return kind
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return standardize_dtype(tf.convert_to_tensor(x).dtype)
    return standardize_dtype(dtype)


def result_type(*dtypes):
    """Keras 3's promotion of several dtypes (strings or weak Python types)."""
    return mb_dtypes.result_type(*dtypes)


def result_of(*values):
    """The promoted dtype of several values (tensors, arrays or Python scalars)."""
    return mb_dtypes.result_type(*[dtype_of(v) for v in values])


def float_result_of(*values):
    """The promoted dtype, made floating: ints and bools become floatx (as Keras)."""
    dtype = result_of(*values)
    if not is_float_dtype(dtype) and "complex" not in dtype:
        return floatx()
    return dtype


def tf_dtype(dtype):
    """A ``tf.DType`` from any dtype spelling."""
    return tf.as_dtype(standardize_dtype(dtype))
