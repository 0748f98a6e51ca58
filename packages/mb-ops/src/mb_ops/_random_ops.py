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
    """Samples from a normal distribution.

    Args:
        shape: the shape of the result.
        mean: the mean of the distribution.
        stddev: its standard deviation.
        dtype: a float dtype; None: ``config.floatx()``.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> x = random.normal((2, 3), seed=1)
    >>> ops.shape(x), ops.dtype(x)
    ((2, 3), 'float32')
    >>> a, b = random.normal((3,), seed=7), random.normal((3,), seed=7)
    >>> bool(np.all(ops.convert_to_numpy(a) == ops.convert_to_numpy(b)))
    True
    """
    return _normal.fn(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples from a uniform distribution on ``[minval, maxval)``.

    Args:
        shape: the shape of the result.
        minval: the lower bound (included).
        maxval: the upper bound (excluded).
        dtype: a float dtype; None: ``config.floatx()``.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> u = ops.convert_to_numpy(random.uniform((100,), minval=2.0, maxval=3.0, seed=1))
    >>> bool((u >= 2.0).all() and (u < 3.0).all())
    True
    """
    return _uniform.fn(shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Samples class indices from categorical distributions given by ``logits``.

    Args:
        logits: a 2D tensor ``(batch, num_classes)`` of unnormalized log-probabilities.
        num_samples: the number of samples drawn per row.
        dtype: an integer dtype.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor ``(batch, num_samples)`` of class indices.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> logits = np.array([[-1e9, 0.0], [0.0, -1e9]], "float32")  # certain outcomes
    >>> ops.convert_to_numpy(random.categorical(logits, 3, seed=1)).tolist()
    [[1, 1, 1], [0, 0, 0]]
    """
    return _categorical.fn(logits, num_samples, dtype=dtype, seed=seed)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Random integers in ``[minval, maxval)``.

    Args:
        shape: the shape of the result.
        minval: the lower bound (included).
        maxval: the upper bound (excluded).
        dtype: an integer dtype.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> r = ops.convert_to_numpy(random.randint((100,), 0, 3, seed=1))
    >>> sorted(set(r.tolist())), str(r.dtype)
    ([0, 1, 2], 'int32')
    """
    return _randint.fn(shape, minval, maxval, dtype=dtype, seed=seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples from a normal distribution truncated at two standard deviations.

    Values more than ``2 * stddev`` from the mean are drawn again.

    Args:
        shape: the shape of the result.
        mean: the mean of the distribution.
        stddev: the standard deviation before truncation.
        dtype: a float dtype; None: ``config.floatx()``.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> t = ops.convert_to_numpy(random.truncated_normal((1000,), seed=1))
    >>> bool(np.abs(t).max() <= 2.0)
    True
    """
    return _truncated_normal.fn(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero entries with probability ``rate`` and scale the rest by ``1 / (1 - rate)``.

    Args:
        inputs: a tensor.
        rate: the probability of zeroing an entry, in ``[0, 1)``.
        noise_shape: None, or a shape broadcastable to ``inputs``: entries sharing a mask
            value are kept or dropped together.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor shaped as ``inputs``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> out = ops.convert_to_numpy(random.dropout(np.ones((10,), "float32"), 0.5, seed=1))
    >>> set(out.tolist()) <= {0.0, 2.0}
    True
    """
    return _dropout.fn(inputs, rate, noise_shape=noise_shape, seed=seed)


def shuffle(x, axis=0, seed=None):
    """Shuffle a tensor along an axis.

    Args:
        x: a tensor.
        axis: the axis whose slices are permuted.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor with the slices of ``x`` along ``axis`` in a random order.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> s = ops.convert_to_numpy(random.shuffle(np.arange(5), seed=1))
    >>> sorted(s.tolist())
    [0, 1, 2, 3, 4]
    """
    return _shuffle.fn(x, axis=axis, seed=seed)


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples from a gamma distribution.

    Args:
        shape: the shape of the result.
        alpha: the shape parameter (> 0) of the distribution; its scale is 1.
        dtype: a float dtype; None: ``config.floatx()``.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape`` of positive values (mean ``alpha``).
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> g = ops.convert_to_numpy(random.gamma((1000,), alpha=2.0, seed=1))
    >>> bool((g > 0).all()), bool(abs(g.mean() - 2.0) < 0.3)
    (True, True)
    """
    return _gamma.fn(shape, alpha=alpha, dtype=dtype, seed=seed)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Samples from a binomial distribution.

    Args:
        shape: the shape of the result.
        counts: the number of trials (a number or a tensor broadcastable to ``shape``).
        probabilities: the success probability of each trial.
        dtype: the dtype of the result; None: ``config.floatx()``.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape``: the number of successes, in ``[0, counts]``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> b = ops.convert_to_numpy(random.binomial((1000,), counts=10, probabilities=0.5, seed=1))
    >>> bool(b.min() >= 0 and b.max() <= 10), bool(abs(b.mean() - 5.0) < 0.5)
    (True, True)
    """
    return _binomial.fn(shape, counts=counts, probabilities=probabilities, dtype=dtype, seed=seed)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples from a beta distribution.

    Args:
        shape: the shape of the result.
        alpha: the first shape parameter (> 0).
        beta: the second shape parameter (> 0).
        dtype: a float dtype; None: ``config.floatx()``.
        seed: an int (the same int gives the same values), a ``SeedGenerator`` (its next
            seed), or None (the global generator's next seed).

    Returns:
        A tensor of ``shape`` with values in ``(0, 1)``.
        The values depend on the backend; the examples show what every
        backend shares.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> x = ops.convert_to_numpy(random.beta((1000,), alpha=2.0, beta=2.0, seed=1))
    >>> bool(((x > 0) & (x < 1)).all())
    True
    """
    return _beta.fn(shape, alpha=alpha, beta=beta, dtype=dtype, seed=seed)
