"""Operand handling shared by the numpy ops: conversion and dtype promotion, kept cheap.

Every binary op promotes with ``mb_ops.dtypes.result_type`` (Python scalars
are weak), through a per-dtype-pair cache. The common case (two tensors of one
dtype, or a tensor and a Python number that does not change its dtype) costs
an ``isinstance`` and an identity check.
"""

import torch

from mb_backend_torch import _device
from mb_backend_torch._convert import convert_to_tensor
from mb_backend_torch._dtypes import (
    COMPLEX_TORCH,
    FLOAT_TORCH,
    INEXACT_TORCH,
    TORCH_DTYPES,
    _promote,
    _result_many,
    to_torch_dtype,
)
from mb_ops import config

Tensor = torch.Tensor
BOOL = torch.bool
_SCALARS = (int, float, bool)


def t(x):
    """``x`` as a tensor (tensors pass through)."""
    if isinstance(x, Tensor):
        return x
    return convert_to_tensor(x)


def floatx():
    return TORCH_DTYPES[config.floatx()]


def device():
    return _device.get_device()


def _to(x, dtype):
    return x if x.dtype is dtype else x.to(dtype)


def _scalar_tensor(value, dtype, like):
    return torch.tensor(value, dtype=dtype, device=like.device)


def promote(x1, x2):
    """Both operands as tensors of their promoted dtype."""
    if isinstance(x1, Tensor):
        if isinstance(x2, Tensor):
            d1 = x1.dtype
            d2 = x2.dtype
            if d1 is d2:
                return x1, x2
            dtype = _promote(d1, d2, config.floatx())
            return _to(x1, dtype), _to(x2, dtype)
        if x2.__class__ in _SCALARS:
            dtype = _promote(x1.dtype, x2.__class__, config.floatx())
            return _to(x1, dtype), _scalar_tensor(x2, dtype, x1)
    elif x1.__class__ in _SCALARS and isinstance(x2, Tensor):
        dtype = _promote(x1.__class__, x2.dtype, config.floatx())
        return _scalar_tensor(x1, dtype, x2), _to(x2, dtype)
    return promote(*_weak_pair(x1, x2))


def promote_scalar(x1, x2):
    """Like ``promote`` but a Python number in second place stays a number.

    For torch functions with a ``Scalar`` overload (add, mul, pow, comparisons):
    no 0-d tensor is built. The first operand is always a tensor.
    """
    if isinstance(x1, Tensor):
        if isinstance(x2, Tensor):
            d1 = x1.dtype
            d2 = x2.dtype
            if d1 is d2:
                return x1, x2
            dtype = _promote(d1, d2, config.floatx())
            return _to(x1, dtype), _to(x2, dtype)
        cls = x2.__class__
        if cls in _SCALARS:
            d1 = x1.dtype
            # A weak Python scalar never changes a float/complex tensor's dtype,
            # nor an integer tensor's when the scalar is an int or a bool.
            if d1.is_floating_point or d1.is_complex or (cls is not float and d1 is not BOOL):
                return x1, x2
            dtype = _promote(d1, cls, config.floatx())
            return _to(x1, dtype), x2
    return promote(x1, x2)


def _weak_pair(x1, x2):
    # Slow path: Variables, arrays, lists, two Python numbers.
    a = x1 if x1.__class__ in _SCALARS else t(x1)
    b = x2 if x2.__class__ in _SCALARS else t(x2)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = t(a)
        if isinstance(b, float) and not a.is_floating_point():
            a = a.to(floatx())
    return a, b


def promote_many(*xs):
    """Several operands as tensors of their promoted dtype (None passes through)."""
    tensors = [x if x is None or x.__class__ in _SCALARS else t(x) for x in xs]
    kinds = [x.dtype if isinstance(x, Tensor) else x.__class__ for x in tensors if x is not None]
    from_dtype = kinds[0]
    for kind in kinds[1:]:
        from_dtype = _promote(from_dtype, kind, config.floatx())
    if not isinstance(from_dtype, torch.dtype):
        from_dtype = _promote(from_dtype, from_dtype, config.floatx())
    like = next((x for x in tensors if isinstance(x, Tensor)), None)
    out = []
    for x in tensors:
        if x is None:
            out.append(None)
        elif isinstance(x, Tensor):
            out.append(_to(x, from_dtype))
        else:
            out.append(
                torch.tensor(x, dtype=from_dtype, device=like.device if like is not None else None)
            )
    return out


def to_float(x):
    """``x`` as a tensor, ints and bools made floatx (Keras's rule for float-valued ops)."""
    x = t(x)
    if x.dtype in INEXACT_TORCH:
        return x
    return x.to(floatx())


def float_dtype_of(dtype):
    """The float dtype a float-valued op returns for an input of ``dtype``."""
    if dtype in INEXACT_TORCH:
        return dtype
    return floatx()


def is_float(x):
    return x.dtype in FLOAT_TORCH


def is_complex(x):
    return x.dtype in COMPLEX_TORCH


def axis_arg(axis):
    """Keras axis -> torch ``dim`` (None, an int or a tuple)."""
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(axis)


def canonicalize_axis(axis, ndim):
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(
            f"axis {axis} is out of bounds for an array of rank {ndim}. "
            f"Expected an axis in [{-ndim}, {ndim})."
        )
    return axis % ndim if ndim else 0


def torch_dtype(dtype, default=None):
    """``dtype`` (any spelling) as a torch dtype; ``default`` when it is None."""
    if dtype is None:
        return default
    return to_torch_dtype(dtype)


def needs_float32_on_cpu(dtype, x):
    """float16 kernels are missing on the CPU for some ops: compute in float32."""
    return dtype is torch.float16 and x.device.type == "cpu"


_WIDEN_TO_INT32 = frozenset({torch.bool, torch.uint8, torch.int8, torch.int16})


def sum_dtype(dtype):
    """The dtype a sum of ``dtype`` values has: small ints and bool widen to int32."""
    return torch.int32 if dtype in _WIDEN_TO_INT32 else dtype


SMALL_INTS = frozenset({torch.int8, torch.int16, torch.int32, torch.uint8})


def float_result(d1, d2):
    # result_type(x1, x2, float): the op returns a float even for int inputs.
    return _result_many((d1, d2, float), config.floatx())


def int_to_float_pair(x1, x2):
    # Keras: small ints -> floatx, int64 -> float64, floats kept.
    x1, x2 = promote(x1, x2)
    dtype = x1.dtype
    if dtype in SMALL_INTS or dtype is BOOL:
        dtype = floatx()
    elif dtype is torch.int64:
        dtype = torch.float64
    return x1.to(dtype), x2.to(dtype)


def empty_axis(axis):
    return isinstance(axis, tuple | list) and len(axis) == 0


def float_compute(dtype):
    # (compute dtype, result dtype) of a float-valued reduction such as mean.
    if dtype.is_floating_point or dtype.is_complex:
        if dtype in (torch.float16, torch.bfloat16):
            return torch.float32, dtype
        return dtype, dtype
    result = _result_many((dtype, float), config.floatx())
    return _result_many((dtype, torch.float32), config.floatx()), result


def nan_fill(x, value):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        return x
    return torch.where(torch.isnan(x), torch.full_like(x, value), x)


def ints(values):
    if isinstance(values, Tensor):
        return [int(v) for v in values.tolist()]
    if isinstance(values, int):
        return [values]
    return [int(v) for v in values]
