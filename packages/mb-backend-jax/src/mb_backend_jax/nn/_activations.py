"""Activation functions over ``jax.nn``."""

import jax.nn as jnn
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor


def _activation(jnn_fn, name):
    def op(x):
        return jnn_fn(convert_to_tensor(x))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"The ``{name}`` activation, element-wise."
    return op


relu = _activation(jnn.relu, "relu")
relu6 = _activation(jnn.relu6, "relu6")
sigmoid = _activation(jnn.sigmoid, "sigmoid")
sparse_sigmoid = _activation(jnn.sparse_sigmoid, "sparse_sigmoid")
tanh = _activation(jnn.tanh, "tanh")
softplus = _activation(jnn.softplus, "softplus")
softsign = _activation(jnn.soft_sign, "softsign")
sparse_plus = _activation(jnn.sparse_plus, "sparse_plus")
silu = _activation(jnn.silu, "silu")
log_sigmoid = _activation(jnn.log_sigmoid, "log_sigmoid")
hard_sigmoid = _activation(jnn.hard_sigmoid, "hard_sigmoid")
hard_silu = _activation(jnn.hard_silu, "hard_silu")
selu = _activation(jnn.selu, "selu")
hard_tanh = _activation(jnn.hard_tanh, "hard_tanh")


def tanh_shrink(x):
    """``x - tanh(x)``."""
    x = convert_to_tensor(x)
    return x - jnp.tanh(x)


def soft_shrink(x, threshold=0.5):
    """``x`` moved ``threshold`` toward zero, zero inside ``[-threshold, threshold]``."""
    x = convert_to_tensor(x)
    return jnp.where(x > threshold, x - threshold, jnp.where(x < -threshold, x + threshold, 0.0))


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else zero."""
    x = convert_to_tensor(x)
    return jnp.where(jnp.abs(x) > threshold, x, 0.0)


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    x = convert_to_tensor(x)
    return jnp.where(x > threshold, x, default_value)


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``."""
    return jnn.squareplus(convert_to_tensor(x), b=b)


def leaky_relu(x, negative_slope=0.2):
    """``x`` if positive, else ``negative_slope * x``."""
    return jnn.leaky_relu(convert_to_tensor(x), negative_slope=negative_slope)


def elu(x, alpha=1.0):
    """Exponential linear unit."""
    return jnn.elu(convert_to_tensor(x), alpha=alpha)


def celu(x, alpha=1.0):
    """Continuously differentiable exponential linear unit."""
    return jnn.celu(convert_to_tensor(x), alpha=alpha)


def gelu(x, approximate=True):
    """Gaussian error linear unit (tanh approximation by default)."""
    return jnn.gelu(convert_to_tensor(x), approximate=approximate)


def glu(x, axis=-1):
    """Gated linear unit: the first half of ``axis`` times sigmoid of the second."""
    return jnn.glu(convert_to_tensor(x), axis=axis)


def softmax(x, axis=-1):
    """Softmax along ``axis`` (an int or tuple)."""
    return jnn.softmax(convert_to_tensor(x), axis=axis)


def log_softmax(x, axis=-1):
    """Log-softmax along ``axis``."""
    return jnn.log_softmax(convert_to_tensor(x), axis=axis)


def sparsemax(x, axis=-1):
    """Sparsemax: the Euclidean projection of ``x`` onto the simplex along ``axis``."""
    x = convert_to_tensor(x)
    ordered = -jnp.sort(-x, axis=axis)
    cumulative = jnp.cumsum(ordered, axis=axis)
    shape = [1] * x.ndim
    shape[axis] = -1
    rank = jnp.arange(1, x.shape[axis] + 1, dtype=x.dtype).reshape(shape)
    support = ordered - (cumulative - 1) / rank > 0
    k = jnp.sum(support, axis=axis, keepdims=True)
    # tau = (sum of the k largest - 1) / k, the threshold that makes the output sum to 1.
    top_k_sum = jnp.take_along_axis(cumulative, k - 1, axis=axis)
    tau = (top_k_sum - 1) / k.astype(x.dtype)
    return jnp.maximum(x - tau, 0.0)
