"""Quantized matrix products through ``lax.dot_general`` with a wide accumulator.

XLA keeps the operands narrow (int8, float8) and accumulates in int32 / float32, so on
accelerators it emits the integer or fp8 GEMM the hardware has.
"""

import jax.numpy as jnp
from jax import lax

from mb_backend_jax.core import convert_to_tensor
from mb_ops import dtypes


def _contract(x1, x2, accumulator):
    dimensions = (((x1.ndim - 1,), (0,)), ((), ()))
    return lax.dot_general(x1, x2, dimensions, preferred_element_type=accumulator)


def int8_matmul(x1, x2):
    return _contract(convert_to_tensor(x1), convert_to_tensor(x2), jnp.int32)


def float8_matmul(x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    product = _contract(convert_to_tensor(x1), convert_to_tensor(x2), jnp.float32)
    scale = jnp.asarray(x1_scale, jnp.float32) * jnp.asarray(x2_scale, jnp.float32)
    return (product * scale).astype(dtypes.standardize_dtype(output_dtype))
