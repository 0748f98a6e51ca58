"""Helpers shared by the NumPy-style ops: conversion with promotion, axes."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import dtype_of, floatx, result_type, standardize_dtype

_SMALL_INTS = ("bool", "int8", "int16")
_SMALL_UINTS = ("uint8", "uint16")


def tensor(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def dt(x):
    """The standardized dtype string of a tensor."""
    return standardize_dtype(x.dtype)


def promote(*xs, extra=()):
    """Convert ``xs`` to tensors of their promoted dtype (Python scalars weak)."""
    dtype = result_type(*[dtype_of(x) for x in xs], *extra)
    return [convert_to_tensor(x, dtype) for x in xs], dtype


def promote_float(*xs):
    """As :func:`promote`, with a float result (ints → floatx via the weak float)."""
    return promote(*xs, extra=(float,))


def unary_float_dtype(x):
    """Keras's dtype for float-valued unary math: int64 → floatx, else promote with float."""
    dtype = dt(x)
    if dtype == "int64":
        return floatx()
    return result_type(dtype, float)


def to_float(x):
    x = tensor(x)
    return tf.cast(x, unary_float_dtype(x))


def sum_dtype(dtype):
    """Accumulator dtype of sums/products, following JAX: small ints widen to 32 bits."""
    if dtype in _SMALL_INTS:
        return "int32"
    if dtype in _SMALL_UINTS:
        return "uint32"
    return dtype


def axes_tuple(axis, ndim):
    """``axis`` (None, int or sequence) as a sorted tuple of non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"axis {a} is out of bounds for a tensor of rank {ndim}.")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(out))


def canonical_axis(axis, ndim):
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for a tensor of rank {ndim}.")
    return axis % ndim


def static_or_dynamic_shape(x):
    dims = x.shape.as_list()
    if None not in dims:
        return dims
    dynamic = tf.shape(x)
    return [dynamic[i] if d is None else d for i, d in enumerate(dims)]


def nan_to(x, value):
    if not x.dtype.is_floating:
        return x
    return tf.where(tf.math.is_nan(x), tf.constant(value, x.dtype), x)
