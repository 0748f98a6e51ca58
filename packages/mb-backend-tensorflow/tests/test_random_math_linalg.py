"""random (determinism, seed generators, moments), math transforms, linalg.jvp."""

import numpy as np
import pytest
import tensorflow as tf
from _helpers import assert_close, numeric_grad

import mb_ops
from mb_backend_tensorflow import linalg, math, random
from mb_ops.random import SeedGenerator

SHAPE = (2000,)


def test_same_int_seed_gives_same_numbers_and_generators_advance():
    a = random.normal((4,), seed=7)
    b = random.normal((4,), seed=7)
    np.testing.assert_array_equal(a, b)
    gen = SeedGenerator(3)
    first, second = random.uniform((4,), seed=gen), random.uniform((4,), seed=gen)
    assert not np.array_equal(first, second)
    again = SeedGenerator(3)
    np.testing.assert_array_equal(random.uniform((4,), seed=again), first)


def test_seed_generator_under_a_stateless_scope_records_its_new_state():
    gen = SeedGenerator(11)
    before = gen.state.numpy().copy()
    with mb_ops.StatelessScope() as scope:
        random.normal((2,), seed=gen)
    np.testing.assert_array_equal(gen.state.numpy(), before)  # live state untouched
    assert scope.get_current_value(gen.state) is not None


@pytest.mark.parametrize(
    ("draw", "mean", "std"),
    [
        (lambda s: random.normal(SHAPE, mean=2.0, stddev=3.0, seed=s), 2.0, 3.0),
        (lambda s: random.uniform(SHAPE, minval=-1.0, maxval=3.0, seed=s), 1.0, 4 / np.sqrt(12)),
        (lambda s: random.gamma(SHAPE, alpha=4.0, seed=s), 4.0, 2.0),
        (lambda s: random.binomial(SHAPE, counts=10, probabilities=0.3, seed=s), 3.0, np.sqrt(2.1)),
        (lambda s: random.beta(SHAPE, 2.0, 3.0, seed=s), 0.4, 0.2),
    ],
)
def test_distributions_have_the_right_moments(draw, mean, std):
    # 2000 samples: the sample mean is within ~4 standard errors.
    x = np.asarray(draw(5), dtype=np.float64)
    assert abs(x.mean() - mean) < 4 * std / np.sqrt(len(x))
    assert abs(x.std() - std) < 0.1 * std


def test_truncated_normal_randint_categorical_shuffle_dropout():
    t = np.asarray(random.truncated_normal(SHAPE, seed=1))
    assert np.abs(t).max() <= 2.0
    r = np.asarray(random.randint((500,), 2, 5, dtype="uint8", seed=1))
    assert r.dtype == np.uint8 and set(np.unique(r)) == {2, 3, 4}
    c = np.asarray(random.categorical(np.log([[0.1, 0.9]]), 1000, seed=1))
    assert abs(c.mean() - 0.9) < 0.05
    s = np.asarray(random.shuffle(np.arange(10), seed=2))
    assert sorted(s.tolist()) == list(range(10))
    d = np.asarray(random.dropout(np.ones((1000,), "float32"), 0.25, seed=3))
    assert np.allclose(d[d != 0], 1 / 0.75) and abs((d == 0).mean() - 0.25) < 0.05
    assert random.normal((2,), dtype="bfloat16", seed=1).dtype == tf.bfloat16


def test_stft_round_trips_through_istft():
    x = np.random.default_rng(0).standard_normal((2, 64)).astype("float32")
    spec = math.stft(x, 16, 4, 16)
    back = np.asarray(math.istft(spec, 16, 4, 16, length=64))
    # TF's inverse window assumes full overlap, so the first/last half-window differ
    # (as in Keras 3's TF backend); the interior is reconstructed.
    assert back.shape == x.shape
    assert_close(back[:, 8:-8], x[:, 8:-8], atol=1e-4)


def test_jvp_matches_finite_differences():
    x = np.array([0.3, -1.2, 0.7])
    t = np.array([1.0, 0.5, -2.0])

    def f(v):
        return tf.reduce_sum(tf.sin(v) * v)

    out, tangent = linalg.jvp(f, (tf.constant(x),), (tf.constant(t),))
    expected = numeric_grad(lambda v: np.sum(np.sin(v) * v), x) @ t
    assert_close(out, np.sum(np.sin(x) * x), dtype="float64")
    assert_close(tangent, expected, rtol=1e-6, atol=1e-8)
    _, _, aux = linalg.jvp(lambda v: (f(v), v * 2), (tf.constant(x),), (tf.constant(t),), True)
    assert_close(aux, 2 * x)
