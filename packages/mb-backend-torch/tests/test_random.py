"""Random functions: reproducible per seed, fresh per SeedGenerator draw, right statistics.

Statistical tolerances are for 20,000 samples (several standard errors wide).
"""

import numpy as np
import pytest

import mb_ops
from mb_backend_torch import core
from mb_backend_torch import random as trandom

N = 20_000


def _np(x):
    return core.convert_to_numpy(x)


def test_same_int_seed_same_numbers_and_generator_advances():
    np.testing.assert_array_equal(
        _np(trandom.normal((5,), seed=7)), _np(trandom.normal((5,), seed=7))
    )
    gen = mb_ops.random.SeedGenerator(7)
    first, second = _np(trandom.uniform((5,), seed=gen)), _np(trandom.uniform((5,), seed=gen))
    assert not np.array_equal(first, second)


def test_normal_and_uniform_statistics():
    x = _np(trandom.normal((N,), mean=2.0, stddev=3.0, seed=1))
    assert abs(x.mean() - 2.0) < 0.1 and abs(x.std() - 3.0) < 0.1
    u = _np(trandom.uniform((N,), minval=-1.0, maxval=3.0, seed=2))
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.05
    assert trandom.uniform((2,), dtype="float64", seed=1).dtype.__str__() == "torch.float64"


def test_truncated_normal_stays_within_two_stddev():
    x = _np(trandom.truncated_normal((N,), mean=1.0, stddev=0.5, seed=3))
    assert x.min() >= 0.0 and x.max() <= 2.0
    assert abs(x.std() - 0.5 * 0.8796) < 0.02  # std of a normal truncated at +-2 sigma


def test_randint_and_categorical():
    r = _np(trandom.randint((N,), 3, 9, seed=4))
    assert r.dtype == np.int32 and r.min() == 3 and r.max() == 8
    logits = np.log(np.array([[0.2, 0.8]], "float32"))
    c = _np(trandom.categorical(logits, N, seed=5))
    assert c.shape == (1, N) and abs(c.mean() - 0.8) < 0.02


def test_dropout_scales_kept_values_and_honours_noise_shape():
    x = np.ones((200, 100), "float32")
    out = _np(trandom.dropout(x, 0.25, seed=6))
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((out == 0).mean() - 0.25) < 0.02
    shared = _np(trandom.dropout(x, 0.5, noise_shape=(200, 1), seed=6))
    assert (shared == shared[:, :1]).all()


def test_shuffle_is_a_permutation():
    x = np.arange(50)
    out = _np(trandom.shuffle(x, seed=8))
    assert sorted(out.tolist()) == x.tolist() and not np.array_equal(out, x)


@pytest.mark.parametrize(
    ("fn", "kwargs", "mean", "var"),
    [
        (trandom.gamma, {"alpha": 3.0}, 3.0, 3.0),
        (trandom.binomial, {"counts": 10, "probabilities": 0.3}, 3.0, 2.1),
        (trandom.beta, {"alpha": 2.0, "beta": 5.0}, 2 / 7, 10 / (49 * 8)),
    ],
)
def test_gamma_binomial_beta_moments(fn, kwargs, mean, var):
    x = _np(fn((N,), seed=9, **kwargs))
    assert abs(x.mean() - mean) < 0.05 * max(1.0, mean)
    assert abs(x.var() - var) < 0.1 * var
