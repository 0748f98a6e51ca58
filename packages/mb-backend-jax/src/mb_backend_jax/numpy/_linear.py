"""Products and contractions: matmul, dot, einsum, tensordot and friends."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor


def _int8_accumulator(*xs):
    # int8 x int8 accumulates in int32, as Keras does (fast integer matmul).
    if all(x.dtype == jnp.int8 for x in xs):
        return "int32"
    return None


def matmul(x1, x2):
    """Matrix product with NumPy's broadcasting rules."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    return jnp.matmul(x1, x2, preferred_element_type=_int8_accumulator(x1, x2))


def einsum(subscripts, *operands, **kwargs):
    """Einstein summation over ``operands``."""
    operands = [convert_to_tensor(x) for x in operands]
    kwargs.setdefault("preferred_element_type", _int8_accumulator(*operands))
    return jnp.einsum(subscripts, *operands, **kwargs)


def dot(x1, x2):
    """NumPy's ``dot``."""
    return jnp.dot(convert_to_tensor(x1), convert_to_tensor(x2))


def tensordot(x1, x2, axes=2):
    """Tensor contraction over ``axes``."""
    return jnp.tensordot(convert_to_tensor(x1), convert_to_tensor(x2), axes=axes)


def outer(x1, x2):
    """Outer product of the flattened inputs."""
    return jnp.outer(convert_to_tensor(x1), convert_to_tensor(x2))


def inner(x1, x2):
    """Inner product over the last axes."""
    return jnp.inner(convert_to_tensor(x1), convert_to_tensor(x2))


def vdot(x1, x2):
    """Dot product of the flattened inputs (conjugating ``x1``)."""
    return jnp.vdot(convert_to_tensor(x1), convert_to_tensor(x2))


def kron(x1, x2):
    """Kronecker product."""
    return jnp.kron(convert_to_tensor(x1), convert_to_tensor(x2))


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 3-vectors (or 2-vectors)."""
    return jnp.cross(
        convert_to_tensor(x1),
        convert_to_tensor(x2),
        axisa=axisa,
        axisb=axisb,
        axisc=axisc,
        axis=axis,
    )


def trace(x, offset=0, axis1=0, axis2=1):
    """Sum along a diagonal."""
    return jnp.trace(convert_to_tensor(x), offset=offset, axis1=axis1, axis2=axis2)


def correlate(x1, x2, mode="valid"):
    """Cross-correlation of two 1-D sequences."""
    return jnp.correlate(convert_to_tensor(x1), convert_to_tensor(x2), mode=mode)


def slogdet(x):
    """``(sign, log|det|)`` of square matrices."""
    return tuple(jnp.linalg.slogdet(convert_to_tensor(x)))
