"""The ``random`` contract module of the JAX backend.

``seed`` is an int, an ``mb_ops.random.SeedGenerator``, None (the global
generator), or a ``uint32`` key of shape (2,); ``mb_ops.random.draw_seed``
turns it into a JAX key. Under ``jax.jit`` pass a SeedGenerator (its state is
a Variable, updated through the stateless scope) or an explicit key.
"""

import jax
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_ops import config, dtypes
from mb_ops.random import draw_seed


def _key(seed):
    if isinstance(seed, jax.Array):
        return seed
    return draw_seed(seed)


def _float_dtype(dtype):
    return dtypes.standardize_dtype(dtype or config.floatx())


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples from N(mean, stddev**2)."""
    sample = jax.random.normal(_key(seed), shape=shape, dtype=_float_dtype(dtype))
    return sample * stddev + mean


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples from U[minval, maxval)."""
    return jax.random.uniform(
        _key(seed), shape=shape, dtype=_float_dtype(dtype), minval=minval, maxval=maxval
    )


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples redrawn outside two standard deviations."""
    sample = jax.random.truncated_normal(
        _key(seed), lower=-2.0, upper=2.0, shape=shape, dtype=_float_dtype(dtype)
    )
    return sample * stddev + mean


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in ``[minval, maxval)``."""
    return jax.random.randint(
        _key(seed), shape=shape, minval=minval, maxval=maxval, dtype=dtypes.standardize_dtype(dtype)
    )


def categorical(logits, num_samples, dtype="int32", seed=None):
    """``num_samples`` class draws per row of 2-D ``logits``."""
    logits = convert_to_tensor(logits)
    shape = (logits.shape[0], num_samples)
    out = jax.random.categorical(_key(seed), logits[..., None], shape=shape, axis=1)
    return out.astype(dtypes.standardize_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero entries with probability ``rate`` and scale the rest by ``1/(1-rate)``."""
    inputs = convert_to_tensor(inputs)
    if rate == 1.0:
        return jnp.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    keep = 1.0 - rate
    if noise_shape is None:
        noise_shape = inputs.shape
    else:
        noise_shape = tuple(inputs.shape[i] if d is None else d for i, d in enumerate(noise_shape))
    mask = jax.random.bernoulli(_key(seed), p=keep, shape=noise_shape)
    mask = jnp.broadcast_to(mask, inputs.shape)
    return jax.lax.select(mask, inputs / keep, jnp.zeros_like(inputs))


def shuffle(x, axis=0, seed=None):
    """``x`` permuted along ``axis``."""
    return jax.random.permutation(_key(seed), convert_to_tensor(x), axis, independent=True)


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples from Gamma(alpha, 1)."""
    return jax.random.gamma(_key(seed), alpha, shape=shape, dtype=_float_dtype(dtype))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Samples from Binomial(counts, probabilities)."""
    return jax.random.binomial(
        _key(seed),
        jnp.asarray(counts),
        jnp.asarray(probabilities),
        shape=shape,
        dtype=_float_dtype(dtype),
    )


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples from Beta(alpha, beta)."""
    return jax.random.beta(
        _key(seed), jnp.asarray(alpha), jnp.asarray(beta), shape=shape, dtype=_float_dtype(dtype)
    )


UNSUPPORTED = {}
