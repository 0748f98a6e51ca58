"""Three of the ``numpy`` contract functions, in ``mb_ops.contract.Numpy``'s signatures."""

import numpy as np

from mb_backend_example.core import convert_to_tensor, dtype_of
from mb_ops import dtypes

# Everything else of the contract is simply absent: a partial backend.
UNSUPPORTED = {}


def _promote(x1, x2):
    dtype = dtypes.result_type(dtype_of(x1), dtype_of(x2))
    return convert_to_tensor(x1, dtype), convert_to_tensor(x2, dtype)


def add(x1, x2):
    a, b = _promote(x1, x2)
    return np.add(a, b)


def multiply(x1, x2):
    a, b = _promote(x1, x2)
    return np.multiply(a, b)


def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    if dtype in ("bool", "int8", "int16", "uint8", "uint16"):
        dtype = "int32"
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.sum(x, axis=axis, keepdims=keepdims).astype(dtype)
