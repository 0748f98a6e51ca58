"""The random contract module: seeding through mb_ops.random and the distributions' moments."""

import numpy as np
import pytest
from _cases import floats

from mb_backend_numpy import random
from mb_ops.random import SeedGenerator


def test_an_int_seed_is_reproducible_and_a_seed_generator_advances():
    a = random.normal((4, 3), seed=7)
    np.testing.assert_array_equal(a, random.normal((4, 3), seed=7))
    assert not np.array_equal(a, random.normal((4, 3), seed=8))
    gen = SeedGenerator(3)
    first, second = random.uniform((5,), seed=gen), random.uniform((5,), seed=gen)
    assert not np.array_equal(first, second)
    again = SeedGenerator(3)
    np.testing.assert_array_equal(random.uniform((5,), seed=again), first)
    assert not np.array_equal(random.normal((3,)), random.normal((3,)))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
def test_float_samplers_return_the_requested_dtype(dtype):
    for fn in (random.normal, random.uniform, random.truncated_normal):
        assert str(fn((2, 2), dtype=dtype, seed=1).dtype) == dtype


def test_distribution_moments():
    n = 40000
    normal = random.normal((n,), mean=2.0, stddev=3.0, dtype="float64", seed=1)
    assert abs(normal.mean() - 2.0) < 0.1 and abs(normal.std() - 3.0) < 0.1
    uniform = random.uniform((n,), minval=-1.0, maxval=3.0, dtype="float64", seed=2)
    assert uniform.min() >= -1.0 and uniform.max() < 3.0 and abs(uniform.mean() - 1.0) < 0.05
    trunc = random.truncated_normal((n,), mean=1.0, stddev=0.5, dtype="float64", seed=3)
    assert trunc.min() >= 0.0 and trunc.max() <= 2.0
    # A normal truncated at two standard deviations has std 0.8796 of the untruncated one.
    assert abs(trunc.std() - 0.5 * 0.8796) < 0.01
    ints = random.randint((n,), 3, 9, seed=4)
    assert ints.dtype == np.int32 and ints.min() == 3 and ints.max() == 8
    g = random.gamma((n,), 2.5, dtype="float64", seed=5)
    assert abs(g.mean() - 2.5) < 0.1
    b = random.beta((n,), 2.0, 3.0, dtype="float64", seed=6)
    assert abs(b.mean() - 0.4) < 0.01
    k = random.binomial((n,), 10, 0.3, dtype="float64", seed=7)
    assert abs(k.mean() - 3.0) < 0.05


def test_categorical_follows_the_softmax_of_the_logits():
    logits = np.log(np.array([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]]))
    samples = random.categorical(logits, 20000, dtype="int32", seed=9)
    assert samples.shape == (2, 20000) and samples.dtype == np.int32
    freq = np.stack([np.bincount(row, minlength=3) / 20000 for row in samples])
    np.testing.assert_allclose(freq, np.exp(logits), atol=0.02)


def test_dropout_zeroes_at_the_rate_and_rescales_the_rest():
    x = np.ones((200, 100), "float32")
    out = random.dropout(x, 0.3, seed=1)
    kept = out != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(out[kept], 1 / 0.7, rtol=1e-6)
    rows = random.dropout(x, 0.5, noise_shape=(200, 1), seed=2)
    assert all(len(np.unique(r)) == 1 for r in rows)
    np.testing.assert_array_equal(random.dropout(x, 0.0), x)


def test_shuffle_permutes_whole_slices():
    x = floats(6, 3)
    out = random.shuffle(x, seed=4)
    assert sorted(map(tuple, out)) == sorted(map(tuple, x))
    cols = random.shuffle(x, axis=1, seed=4)
    np.testing.assert_array_equal(np.sort(cols, 1), np.sort(x, 1))
