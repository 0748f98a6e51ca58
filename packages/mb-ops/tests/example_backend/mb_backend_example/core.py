"""Tensors are ``numpy.ndarray``; conversion follows mb's dtype rules."""

import numpy as np

from mb_ops import dtypes

SUPPORTS_SPARSE_TENSORS = False
SUPPORTS_RAGGED_TENSORS = False
IS_THREAD_SAFE = True
UNSUPPORTED = {}


def dtype_of(x):
    """The mb dtype ``x`` contributes to promotion (``int``/``float`` for weak scalars)."""
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int | float):
        return type(x)
    return dtypes.standardize_dtype(np.asarray(x).dtype)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    if dtype is None:
        dtype = dtype_of(x)
        if dtype is float:
            dtype = dtypes.result_type(float)
        elif dtype is int:
            dtype = "int32"
    return np.asarray(x, dtype=dtypes.standardize_dtype(dtype))


def convert_to_numpy(x):
    return np.asarray(x)


def is_tensor(x):
    return isinstance(x, np.ndarray)


def shape(x):
    return tuple(np.shape(x))


def cast(x, dtype):
    return convert_to_tensor(x, dtype)
