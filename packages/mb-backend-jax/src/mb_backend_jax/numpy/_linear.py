"""Products and linear-algebra flavoured ops: matmul, dot, einsum, diagonals, triangles."""

import jax.numpy as jnp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import dtypes


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


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of ``x``."""
    return jnp.vander(convert_to_tensor(x), N=N, increasing=increasing)


def corrcoef(x):
    """Pearson correlation coefficients between the rows of ``x``."""
    x = convert_to_tensor(x)
    x = cast(x, dtypes.result_type(x.dtype, float))
    return jnp.corrcoef(x)


def diag(x, k=0):
    """The ``k``-th diagonal of a 2-D ``x``, or a 2-D matrix from a 1-D ``x``."""
    return jnp.diag(convert_to_tensor(x), k=k)


def diagflat(x, k=0):
    """A 2-D matrix with the flattened ``x`` on diagonal ``k``."""
    return jnp.diagflat(convert_to_tensor(x), k=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of ``x`` in the plane ``(axis1, axis2)``."""
    return jnp.diagonal(convert_to_tensor(x), offset=offset, axis1=axis1, axis2=axis2)


def tril(x, k=0):
    """``x`` with the entries above diagonal ``k`` zeroed."""
    return jnp.tril(convert_to_tensor(x), k=k)


def triu(x, k=0):
    """``x`` with the entries below diagonal ``k`` zeroed."""
    return jnp.triu(convert_to_tensor(x), k=k)
