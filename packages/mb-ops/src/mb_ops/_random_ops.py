"""The ``keras.random`` functions: each calls the active backend's random module.

Random ops are eager only (as in Keras): ``seed`` is an int, a SeedGenerator
or None, which the backend turns into a key with ``mb_ops.random.draw_seed``.
"""

from __future__ import annotations

from mb_ops._ops._machinery import BackendFunction

_normal = BackendFunction("random", "normal")
_uniform = BackendFunction("random", "uniform")
_categorical = BackendFunction("random", "categorical")
_randint = BackendFunction("random", "randint")
_truncated_normal = BackendFunction("random", "truncated_normal")
_dropout = BackendFunction("random", "dropout")
_shuffle = BackendFunction("random", "shuffle")
_gamma = BackendFunction("random", "gamma")
_binomial = BackendFunction("random", "binomial")
_beta = BackendFunction("random", "beta")


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples from a normal distribution."""
    return _normal.fn(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples from a uniform distribution on ``[minval, maxval)``."""
    return _uniform.fn(shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Samples class indices from categorical distributions given by ``logits``."""
    return _categorical.fn(logits, num_samples, dtype=dtype, seed=seed)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Random integers in ``[minval, maxval)``."""
    return _randint.fn(shape, minval, maxval, dtype=dtype, seed=seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples from a normal distribution truncated at two standard deviations."""
    return _truncated_normal.fn(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero entries with probability ``rate`` and scale the rest by ``1 / (1 - rate)``."""
    return _dropout.fn(inputs, rate, noise_shape=noise_shape, seed=seed)


def shuffle(x, axis=0, seed=None):
    """Shuffle a tensor along an axis."""
    return _shuffle.fn(x, axis=axis, seed=seed)


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples from a gamma distribution."""
    return _gamma.fn(shape, alpha=alpha, dtype=dtype, seed=seed)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Samples from a binomial distribution."""
    return _binomial.fn(shape, counts=counts, probabilities=probabilities, dtype=dtype, seed=seed)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples from a beta distribution."""
    return _beta.fn(shape, alpha=alpha, beta=beta, dtype=dtype, seed=seed)
