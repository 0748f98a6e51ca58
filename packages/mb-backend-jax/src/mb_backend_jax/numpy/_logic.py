"""Element-wise logic: comparisons, closeness, float classification, logical and bitwise
ops."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.numpy._common import binary, unary

# Comparisons and logic.
equal = binary(jnp.equal, "equal")
not_equal = binary(jnp.not_equal, "not_equal")
less = binary(jnp.less, "less")
less_equal = binary(jnp.less_equal, "less_equal")
greater = binary(jnp.greater, "greater")
greater_equal = binary(jnp.greater_equal, "greater_equal")
logical_and = binary(jnp.logical_and, "logical_and")
logical_or = binary(jnp.logical_or, "logical_or")
logical_xor = binary(jnp.logical_xor, "logical_xor")
logical_not = unary(jnp.logical_not, "logical_not")
signbit = unary(jnp.signbit, "signbit")
isfinite = unary(jnp.isfinite, "isfinite")
isinf = unary(jnp.isinf, "isinf")
isnan = unary(jnp.isnan, "isnan")
isneginf = unary(jnp.isneginf, "isneginf")
isposinf = unary(jnp.isposinf, "isposinf")
isreal = unary(jnp.isreal, "isreal")


def bitwise_and(x, y):
    """Element-wise bitwise AND."""
    return jnp.bitwise_and(convert_to_tensor(x), convert_to_tensor(y))


def bitwise_or(x, y):
    """Element-wise bitwise OR."""
    return jnp.bitwise_or(convert_to_tensor(x), convert_to_tensor(y))


def bitwise_xor(x, y):
    """Element-wise bitwise XOR."""
    return jnp.bitwise_xor(convert_to_tensor(x), convert_to_tensor(y))


def bitwise_invert(x):
    """Element-wise bitwise NOT."""
    return jnp.invert(convert_to_tensor(x))


def bitwise_not(x):
    """Element-wise bitwise NOT (alias of ``bitwise_invert``)."""
    return bitwise_invert(x)


def bitwise_left_shift(x, y):
    """``x << y`` element-wise."""
    return jnp.left_shift(convert_to_tensor(x), y if isinstance(y, int) else convert_to_tensor(y))


def left_shift(x, y):
    """``x << y`` element-wise."""
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    """``x >> y`` element-wise."""
    return jnp.right_shift(convert_to_tensor(x), y if isinstance(y, int) else convert_to_tensor(y))


def right_shift(x, y):
    """``x >> y`` element-wise."""
    return bitwise_right_shift(x, y)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|x1 - x2| <= atol + rtol * |x2|``."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    return jnp.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``isclose`` holds everywhere (a scalar bool tensor)."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    return jnp.allclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)
