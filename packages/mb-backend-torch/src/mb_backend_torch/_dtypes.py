"""Dtype maps between mb's dtype names and ``torch.dtype``, built once.

Every promotion decision goes through ``mb_ops.dtypes.result_type`` (Keras 3's
JAX lattice with weak Python scalars); this module caches the answers per pair
of torch dtypes so that eager ops pay a dict lookup, not a lattice walk.
"""

import functools

import ml_dtypes
import numpy as np
import torch

from mb_backend_torch import _llvm
from mb_ops import config
from mb_ops import dtypes as mb_dtypes

# Every contract module but `layer` and `distribution` imports this one: the first use of
# the backend loads triton, before anything can import TensorFlow (see _llvm).
_llvm.load_triton_first()

standardize_dtype = mb_dtypes.standardize_dtype
is_float_dtype = mb_dtypes.is_float_dtype
is_int_dtype = mb_dtypes.is_int_dtype
floatx = config.floatx

# mb dtype name -> torch dtype. torch has no usable uint16/uint32/uint64 (few
# kernels), so, as in Keras's torch backend, they widen to the next signed type.
TORCH_DTYPES = {
    "float16": torch.float16,
    "float32": torch.float32,
    "float64": torch.float64,
    "bfloat16": torch.bfloat16,
    "uint8": torch.uint8,
    "uint16": torch.int32,
    "uint32": torch.int64,
    "uint64": torch.int64,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "bool": torch.bool,
    "float8_e4m3fn": torch.float8_e4m3fn,
    "float8_e5m2": torch.float8_e5m2,
    "complex64": torch.complex64,
    "complex128": torch.complex128,
}

# torch dtype -> mb dtype name (the inverse of the map above, plus torch's own
# unsigned types in case a user hands one in).
DTYPE_NAMES = {
    torch.float16: "float16",
    torch.float32: "float32",
    torch.float64: "float64",
    torch.bfloat16: "bfloat16",
    torch.uint8: "uint8",
    torch.int8: "int8",
    torch.int16: "int16",
    torch.int32: "int32",
    torch.int64: "int64",
    torch.bool: "bool",
    torch.float8_e4m3fn: "float8_e4m3fn",
    torch.float8_e5m2: "float8_e5m2",
    torch.complex64: "complex64",
    torch.complex128: "complex128",
    torch.uint16: "uint16",
    torch.uint32: "uint32",
    torch.uint64: "uint64",
}

FLOAT_TORCH = frozenset({torch.float16, torch.float32, torch.float64, torch.bfloat16})
COMPLEX_TORCH = frozenset({torch.complex64, torch.complex128})
INEXACT_TORCH = FLOAT_TORCH | COMPLEX_TORCH

# numpy dtypes torch.from_numpy cannot take, and what to read them as.
NUMPY_WIDEN = {
    np.dtype(np.uint16): np.int32,
    np.dtype(np.uint32): np.int64,
    np.dtype(np.uint64): np.int64,
}
NUMPY_BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def to_torch_dtype(dtype):
    """A ``torch.dtype`` from any dtype spelling (``"float32"``, np.float32, torch dtype)."""
    if isinstance(dtype, torch.dtype):
        return dtype
    found = TORCH_DTYPES.get(dtype) if isinstance(dtype, str) else None
    if found is not None:
        return found
    name = standardize_dtype(dtype)
    found = TORCH_DTYPES.get(name)
    if found is None:
        raise ValueError(
            f"The torch backend cannot represent dtype {dtype!r} (standardized: {name!r}). "
            f"Supported dtypes: {', '.join(TORCH_DTYPES)}."
        )
    return found


def dtype_name(torch_dtype):
    """The mb name of a torch dtype (``torch.float32`` -> ``"float32"``)."""
    return DTYPE_NAMES[torch_dtype]


# The answers depend on floatx (a Python float alone, or int with float, gives
# floatx), so floatx is part of every cache key.
@functools.cache
def _promote(a, b, _floatx):
    # a and b are torch dtypes or the weak Python types int/float/bool/complex.
    return TORCH_DTYPES[mb_dtypes.result_type(DTYPE_NAMES.get(a, a), DTYPE_NAMES.get(b, b))]


def promote(a, b):
    """The torch dtype two operands promote to (each a torch dtype or a weak Python type)."""
    if a is b and a.__class__ is torch.dtype:
        return a
    return _promote(a, b, floatx())


@functools.cache
def _result_many(dtypes, _floatx):
    return TORCH_DTYPES[mb_dtypes.result_type(*[DTYPE_NAMES.get(d, d) for d in dtypes])]


def result_type(*dtypes):
    """The promoted torch dtype of many torch dtypes / weak Python types."""
    return _result_many(dtypes, floatx())


def weak_type(x):
    """The dtype of ``x`` for promotion: a torch dtype, or a weak Python type for scalars."""
    if isinstance(x, torch.Tensor):
        return x.dtype
    kind = mb_dtypes.python_scalar_type(x)
    if kind is not None:
        return kind
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return to_torch_dtype(dtype)
    return None


def floatx_torch():
    """``config.floatx()`` as a torch dtype."""
    return TORCH_DTYPES[config.floatx()]
