"""Helpers shared by the numpy-family files: conversion and dtype rules."""

import jax.numpy as jnp

from mb_backend_jax._convert import float_dtype_of
from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import config, dtypes


def to_float(x):
    """``x`` cast to the float dtype a float-valued op returns for it."""
    return cast(x, float_dtype_of(x.dtype))


def int_to_floatx(x):
    """``x`` cast to floatx when it holds ints or bools, else unchanged."""
    dtype = dtypes.standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return cast(x, config.floatx())
    return x


def int64_to_floatx(x):
    """``x`` cast to floatx when it is int64 (JAX's own rules cover the rest)."""
    if dtypes.standardize_dtype(x.dtype) == "int64":
        return cast(x, config.floatx())
    return x


def unary(jnp_fn, name, prepare=None):
    """An element-wise op ``name(x)`` over ``jnp_fn`` with an optional input cast."""

    def op(x):
        x = convert_to_tensor(x)
        if prepare is not None:
            x = prepare(x)
        return jnp_fn(x)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` of ``x`` (``jnp.{jnp_fn.__name__}``)."
    return op


def binary(jnp_fn, name, float_result=False):
    """An element-wise op ``name(x1, x2)`` with JAX (= Keras) type promotion.

    ``float_result``: cast both inputs to ``result_type(x1, x2, float)`` first.
    """

    def op(x1, x2):
        if float_result:
            # Promote from the raw operands so Python scalars stay weak.
            dtype = dtypes.result_type(
                dtypes.python_type_or_dtype(x1), dtypes.python_type_or_dtype(x2), float
            )
            return jnp_fn(convert_to_tensor(x1, dtype), convert_to_tensor(x2, dtype))
        return jnp_fn(convert_to_tensor(x1), convert_to_tensor(x2))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` of ``x1`` and ``x2`` (``jnp.{jnp_fn.__name__}``)."
    return op


def axis_arg(axis):
    """``axis`` in the form jnp accepts (lists become tuples)."""
    return tuple(axis) if isinstance(axis, list) else axis


def nan_reduction(jnp_fn, name):
    def op(x, axis=None, keepdims=False):
        return jnp_fn(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}`` over ``axis``, ignoring NaN."
    return op


__all__ = [
    "axis_arg",
    "binary",
    "int64_to_floatx",
    "int_to_floatx",
    "jnp",
    "nan_reduction",
    "to_float",
    "unary",
]
