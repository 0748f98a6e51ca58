"""Dtype names on the OpenVINO backend: mb names, NumPy dtypes and ``openvino.Type``.

Promotion follows mb's rules (``mb_ops.dtypes``). This module maps the three
vocabularies onto each other and memoizes what sits on every op's path.
"""

import ml_dtypes
import numpy as np
import openvino as ov

from mb_ops import config, numpy_shaped
from mb_ops.dtypes import FLOAT_TYPES as FLOAT_TYPES
from mb_ops.dtypes import INT_TYPES as INT_TYPES
from mb_ops.dtypes import is_float_dtype as is_float_dtype
from mb_ops.dtypes import is_int_dtype as is_int_dtype
from mb_ops.dtypes import result_type as result_type
from mb_ops.dtypes import standardize_dtype as standardize_dtype

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

OV_TYPES = {
    "bool": ov.Type.boolean,
    "int8": ov.Type.i8,
    "int16": ov.Type.i16,
    "int32": ov.Type.i32,
    "int64": ov.Type.i64,
    "uint8": ov.Type.u8,
    "uint16": ov.Type.u16,
    "uint32": ov.Type.u32,
    "uint64": ov.Type.u64,
    "bfloat16": ov.Type.bf16,
    "float16": ov.Type.f16,
    "float32": ov.Type.f32,
    "float64": ov.Type.f64,
    "float8_e4m3fn": ov.Type.f8e4m3,
    "float8_e5m2": ov.Type.f8e5m2,
}
"""mb dtype name -> ``openvino.Type``."""

_NAME_OF_OV = {t.get_type_name(): name for name, t in OV_TYPES.items()}

_NUMPY_DTYPES = {
    "bfloat16": BFLOAT16,
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
}

_NUMPY = numpy_shaped.NumpyDtypes(_NUMPY_DTYPES)
to_numpy_dtype = _NUMPY.to_numpy_dtype
"""The ``numpy.dtype`` of an mb dtype (bfloat16 and float8 from ml-dtypes)."""
name_of = _NUMPY.name_of
"""The mb name of a ``numpy.dtype`` (memoized: this is on every op's path)."""

UNSUPPORTED_DTYPES = {
    "complex64": "OpenVINO has no complex element type",
    "complex128": "OpenVINO has no complex element type",
    "string": "OpenVINO string tensors cannot take part in numeric ops",
}


def ov_type(dtype):
    """The ``openvino.Type`` of an mb dtype; a clear error for complex and string."""
    try:
        return OV_TYPES[dtype]
    except KeyError:
        pass
    name = standardize_dtype(dtype)
    if name in UNSUPPORTED_DTYPES:
        raise TypeError(
            f"The openvino backend cannot hold {name} tensors: {UNSUPPORTED_DTYPES[name]}. "
            "Use a real dtype (e.g. two float32 tensors for the real and imaginary parts) "
            "or another backend (jax, torch, tensorflow, numpy)."
        )
    return OV_TYPES[name]


def name_of_ov(element_type):
    """The mb name of an ``openvino.Type``."""
    return _NAME_OF_OV[element_type.get_type_name()]


fast_result_type = _NUMPY.result_type
"""``result_type`` memoized on its arguments and the current floatx."""


def float_dtype(dtype):
    """The dtype a float-valued op gives for an input of ``dtype`` (Keras's rule)."""
    if dtype == "int64":
        return config.floatx()
    return fast_result_type(dtype, float)


def sum_dtype(dtype):
    """Accumulator dtype of sums and products (JAX's rule: small ints widen)."""
    if dtype in ("bool", "int8", "int16"):
        return "int32"
    if dtype in ("uint8", "uint16"):
        return "uint32"
    return dtype


def floatx():
    return config.floatx()


def finfo(dtype):
    """``ml_dtypes.finfo`` of an mb float dtype (bfloat16 included)."""
    return ml_dtypes.finfo(to_numpy_dtype(dtype))


def iinfo(dtype):
    return np.iinfo(to_numpy_dtype(dtype))
