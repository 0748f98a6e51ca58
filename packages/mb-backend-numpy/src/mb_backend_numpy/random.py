"""Random numbers on NumPy: each call seeds a ``numpy.random.Generator`` from ``draw_seed``.

The same seed gives the same numbers; a ``SeedGenerator`` (or the global one,
with ``seed=None``) gives new numbers at each call.
"""

import math

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import to_numpy_dtype
from mb_backend_numpy.nn._activations import log_softmax
from mb_ops import config
from mb_ops.random import draw_seed

# Every keras.random function runs on NumPy.
UNSUPPORTED = {}


def _rng(seed):
    key = np.asarray(to_tensor(draw_seed(seed))).astype("uint64").ravel().tolist()
    return np.random.default_rng(key)


def _shape(shape):
    return tuple(int(d) for d in shape)


def _dtype(dtype):
    return to_numpy_dtype(dtype or config.floatx())


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    rng = _rng(seed)
    values = rng.standard_normal(size=_shape(shape))
    return (values * to_tensor(stddev) + to_tensor(mean)).astype(_dtype(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    rng = _rng(seed)
    low, high = to_tensor(minval), to_tensor(maxval)
    values = rng.uniform(size=_shape(shape))
    return (low + values * (high - low)).astype(_dtype(dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal values redrawn until they lie within two standard deviations of the mean."""
    rng = _rng(seed)
    shape = _shape(shape)
    values = rng.standard_normal(size=math.prod(shape))
    outside = np.abs(values) > 2.0
    while outside.any():
        values[outside] = rng.standard_normal(size=int(outside.sum()))
        outside = np.abs(values) > 2.0
    values = values.reshape(shape) * to_tensor(stddev) + to_tensor(mean)
    return values.astype(_dtype(dtype))


def randint(shape, minval, maxval, dtype="int32", seed=None):
    rng = _rng(seed)
    low, high = to_tensor(minval), to_tensor(maxval)
    return rng.integers(low, high, size=_shape(shape)).astype(to_numpy_dtype(dtype))


def categorical(logits, num_samples, dtype="int32", seed=None):
    """``num_samples`` class indices per row of ``logits`` (unnormalized log-probabilities)."""
    rng = _rng(seed)
    logits = to_tensor(logits).astype("float64")
    if logits.ndim != 2:
        raise ValueError(
            f"categorical expects logits of shape (batch, classes). Received: {logits.shape}."
        )
    # Gumbel-max: argmax(logits + Gumbel noise) is a draw from softmax(logits).
    gumbel = rng.gumbel(size=(logits.shape[0], int(num_samples), logits.shape[1]))
    noisy = log_softmax(logits, axis=-1)[:, None, :] + gumbel
    return np.argmax(noisy, axis=-1).astype(to_numpy_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = to_tensor(inputs)
    rate = float(rate)
    if rate >= 1.0:
        return np.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    if noise_shape is None:
        noise_shape = inputs.shape
    else:
        noise_shape = tuple(
            inputs.shape[i] if n is None else int(n) for i, n in enumerate(noise_shape)
        )
    keep = _rng(seed).uniform(size=noise_shape) < 1.0 - rate
    keep = np.broadcast_to(keep, inputs.shape)
    scaled = (inputs / np.asarray(1.0 - rate, dtype=inputs.dtype)).astype(inputs.dtype)
    return np.where(keep, scaled, np.zeros((), dtype=inputs.dtype))


def shuffle(x, axis=0, seed=None):
    x = to_tensor(x)
    order = _rng(seed).permutation(x.shape[axis])
    return np.take(x, order, axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    return _rng(seed).gamma(to_tensor(alpha), 1.0, size=_shape(shape)).astype(_dtype(dtype))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    rng = _rng(seed)
    sample = rng.binomial(to_tensor(counts), to_tensor(probabilities), size=_shape(shape))
    return sample.astype(_dtype(dtype))


def beta(shape, alpha, beta, dtype=None, seed=None):
    rng = _rng(seed)
    return rng.beta(to_tensor(alpha), to_tensor(beta), size=_shape(shape)).astype(_dtype(dtype))
