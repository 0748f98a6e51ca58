"""Dtype names and promotion as the NumPy backend uses them.

The rules are mb's (``mb_ops.dtypes``: Keras 3's lattice, taken from JAX, with
weak Python scalars). This module adds what the backend needs on top: NumPy
dtype objects for mb dtype names (bfloat16 and float8 come from ml-dtypes) and
the dtype an operand brings to promotion.
"""

import ml_dtypes
import numpy as np

from mb_ops import numpy_shaped
from mb_ops.dtypes import FLOAT_TYPES as FLOAT_TYPES
from mb_ops.dtypes import INT_TYPES as INT_TYPES
from mb_ops.dtypes import is_float_dtype as is_float_dtype
from mb_ops.dtypes import is_int_dtype as is_int_dtype
from mb_ops.dtypes import python_scalar_type
from mb_ops.dtypes import result_type as result_type
from mb_ops.dtypes import standardize_dtype as standardize_dtype

_NUMPY_DTYPES = {
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "string": np.dtype("str"),
}

_NUMPY = numpy_shaped.NumpyDtypes(_NUMPY_DTYPES)
to_numpy_dtype = _NUMPY.to_numpy_dtype
"""The ``numpy.dtype`` of an mb dtype (bfloat16 and float8 from ml-dtypes)."""
name_of = _NUMPY.name_of
"""The mb name of a ``numpy.dtype`` (memoized: this is on every op's path)."""


fast_result_type = _NUMPY.result_type
"""``result_type`` memoized on its arguments and the current floatx."""


# What a Python scalar of each type brings to promotion: int and float stay weak.
_SCALAR_PROMOTION = {bool: "bool", int: int, float: float, complex: "complex64"}


def dtype_of(x):
    """What ``x`` contributes to promotion: its dtype, or a weak Python type."""
    kind = type(x)
    if kind is float or kind is int:
        return kind
    if isinstance(x, np.ndarray | np.generic):
        return name_of(x.dtype)
    kind = python_scalar_type(x)
    if kind is not None:
        return _SCALAR_PROMOTION[kind]
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return standardize_dtype(dtype)
    return standardize_dtype(np.asarray(x).dtype)
