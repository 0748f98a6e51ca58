"""Dtype names and promotion (Keras 3's rules), shared by every backend."""

from mb_ops._dtypes import ALLOWED_DTYPES as ALLOWED_DTYPES
from mb_ops._dtypes import BOOL_TYPES as BOOL_TYPES
from mb_ops._dtypes import COMPLEX_TYPES as COMPLEX_TYPES
from mb_ops._dtypes import FLOAT8_TYPES as FLOAT8_TYPES
from mb_ops._dtypes import FLOAT_TYPES as FLOAT_TYPES
from mb_ops._dtypes import INT_TYPES as INT_TYPES
from mb_ops._dtypes import WEAK_TYPES as WEAK_TYPES
from mb_ops._dtypes import dtype_of as dtype_of
from mb_ops._dtypes import is_complex_dtype as is_complex_dtype
from mb_ops._dtypes import is_float_dtype as is_float_dtype
from mb_ops._dtypes import is_int_dtype as is_int_dtype
from mb_ops._dtypes import python_scalar_type as python_scalar_type
from mb_ops._dtypes import python_type_or_dtype as python_type_or_dtype
from mb_ops._dtypes import result_type as result_type
from mb_ops._dtypes import standardize_dtype as standardize_dtype

__all__ = [
    "ALLOWED_DTYPES",
    "BOOL_TYPES",
    "COMPLEX_TYPES",
    "FLOAT8_TYPES",
    "FLOAT_TYPES",
    "INT_TYPES",
    "WEAK_TYPES",
    "dtype_of",
    "is_complex_dtype",
    "is_float_dtype",
    "is_int_dtype",
    "python_scalar_type",
    "python_type_or_dtype",
    "result_type",
    "standardize_dtype",
]
