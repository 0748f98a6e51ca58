"""The metrics over loss functions (regression, probabilistic, hinge) and RMSE / cosine
similarity: NumPy formulas over several weighted batches, and Keras 3."""

import numpy as np
import pytest

from mb_train import losses, metrics

EPS = 1e-7


def signed(t):
    return 2 * t - 1


def np_cce(t, p):
    p = p / p.sum(-1, keepdims=True)
    return -np.sum(t * np.log(np.clip(p, EPS, 1 - EPS)), -1)


PER_SAMPLE = {
    "MeanSquaredError": lambda t, p: np.mean((t - p) ** 2, -1),
    "MeanAbsoluteError": lambda t, p: np.mean(np.abs(t - p), -1),
    "MeanAbsolutePercentageError": lambda t, p: (
        100 * np.mean(np.abs(t - p) / np.maximum(np.abs(t), EPS), -1)
    ),
    "MeanSquaredLogarithmicError": lambda t, p: np.mean(
        (np.log1p(np.maximum(p, EPS)) - np.log1p(np.maximum(t, EPS))) ** 2, -1
    ),
    "LogCoshError": lambda t, p: np.mean(np.log(np.cosh(p - t)), -1),
    "CosineSimilarity": lambda t, p: np.sum(
        t
        / np.linalg.norm(t, axis=-1, keepdims=True)
        * p
        / np.linalg.norm(p, axis=-1, keepdims=True),
        -1,
    ),
    "KLDivergence": lambda t, p: np.sum(
        np.clip(t, EPS, 1) * np.log(np.clip(t, EPS, 1) / np.clip(p, EPS, 1)), -1
    ),
    "Poisson": lambda t, p: np.mean(p - t * np.log(p + EPS), -1),
    "BinaryCrossentropy": lambda t, p: (
        -np.mean(
            t * np.log(np.clip(p, EPS, 1 - EPS)) + (1 - t) * np.log(np.clip(1 - p, EPS, 1 - EPS)),
            -1,
        )
    ),
    "CategoricalCrossentropy": np_cce,
    "Hinge": lambda t, p: np.mean(np.maximum(1 - signed(t) * p, 0), -1),
    "SquaredHinge": lambda t, p: np.mean(np.maximum(1 - signed(t) * p, 0) ** 2, -1),
    "CategoricalHinge": lambda t, p: np.maximum(np.max((1 - t) * p, -1) - np.sum(t * p, -1) + 1, 0),
}


def data(rng, name, n):
    """Targets and predictions in the domain each metric expects."""
    if name in ("KLDivergence", "CategoricalCrossentropy", "CategoricalHinge"):
        t = np.eye(4)[rng.integers(0, 4, size=n)].astype("float32")
        if name == "KLDivergence":
            t = rng.dirichlet(np.ones(4), size=n).astype("float32")
        return t, rng.dirichlet(np.ones(4), size=n).astype("float32")
    if name in ("BinaryCrossentropy", "Hinge", "SquaredHinge"):
        return rng.integers(0, 2, size=(n, 3)).astype("float32"), rng.uniform(
            0.05, 0.95, size=(n, 3)
        ).astype("float32")
    if name in ("Poisson", "MeanSquaredLogarithmicError"):
        return rng.uniform(0, 3, size=(n, 3)).astype("float32"), rng.uniform(
            0.1, 3, size=(n, 3)
        ).astype("float32")
    return rng.normal(size=(n, 3)).astype("float32"), rng.normal(size=(n, 3)).astype("float32")


def weighted_mean(per_sample, batches):
    total = count = 0.0
    for t, p, w in batches:
        w = np.ones(len(t)) if w is None else w
        total += np.sum(per_sample(t.astype(float), p.astype(float)) * w)
        count += np.sum(w)
    return total / count


@pytest.mark.parametrize("name", sorted(PER_SAMPLE))
def test_metric_is_the_weighted_mean_of_its_formula(support, rng, name):
    batches = []
    for n, weighted in ((12, True), (7, False), (5, True)):
        t, p = data(rng, name, n)
        batches.append((t, p, rng.uniform(size=n).astype("float32") if weighted else None))
    m = getattr(metrics, name)()
    for t, p, w in batches:
        m.update_state(t, p, sample_weight=w)
    expected = weighted_mean(PER_SAMPLE[name], batches)
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-4, abs=1e-6)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


def test_sparse_categorical_crossentropy_and_ignore_class(support, rng):
    labels = rng.integers(0, 4, size=10)
    probs = rng.dirichlet(np.ones(4), size=10).astype("float32")
    m = metrics.SparseCategoricalCrossentropy()
    m.update_state(labels, probs)
    nll = -np.log(np.clip(probs[np.arange(10), labels], EPS, 1))
    assert support.to_numpy(m.result()) == pytest.approx(nll.mean(), rel=1e-5)
    # Samples of the ignored class count neither in the sum nor in the count, with or
    # without weights (Keras 3 still counts them when no weights are given).
    keep = labels != 2
    ignoring = metrics.SparseCategoricalCrossentropy(ignore_class=2)
    ignoring.update_state(labels, probs)
    assert support.to_numpy(ignoring.result()) == pytest.approx(nll[keep].mean(), rel=1e-5)
    w = rng.uniform(size=10).astype("float32")
    ignoring.reset_state()
    ignoring.update_state(labels, probs, sample_weight=w)
    expected = np.sum((nll * w)[keep]) / np.sum(w[keep])
    assert support.to_numpy(ignoring.result()) == pytest.approx(expected, rel=1e-5)


def test_root_mean_squared_error(support, rng):
    batches = [
        (rng.normal(size=(6, 2)), rng.normal(size=(6, 2)), rng.uniform(size=6)),
        (rng.normal(size=(4, 2)), rng.normal(size=(4, 2)), None),
    ]
    m = metrics.RootMeanSquaredError()
    for t, p, w in batches:
        m.update_state(t, p, sample_weight=w)
    expected = np.sqrt(weighted_mean(PER_SAMPLE["MeanSquaredError"], batches))
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-5)


def test_loss_functions_are_the_losses_packages(support):
    for name in ("mean_squared_error", "binary_crossentropy", "huber", "log_cosh", "poisson"):
        assert getattr(metrics, name) is getattr(losses, name)


def test_options_match_keras(support, rng):
    logits = rng.normal(size=(8, 3)).astype("float32")
    binary = rng.integers(0, 2, size=(8, 3)).astype("float32")
    one_hot = np.eye(3)[rng.integers(0, 3, size=8)].astype("float32")
    labels = rng.integers(0, 3, size=8)
    w = rng.uniform(size=8).astype("float32")
    probs = np.abs(logits) / np.abs(logits).sum(-1, keepdims=True)
    seq_t, seq_p = rng.normal(size=(4, 5, 2)), rng.normal(size=(4, 5, 2))
    support.assert_matches_keras(
        [
            (
                lambda: metrics.BinaryCrossentropy(from_logits=True, label_smoothing=0.1),
                [(binary, logits, w)],
            ),
            (
                lambda: metrics.CategoricalCrossentropy(from_logits=True, label_smoothing=0.2),
                [(one_hot, logits, w)],
            ),
            (
                lambda: metrics.CategoricalCrossentropy(axis=0),
                [(one_hot.T, np.abs(logits.T), None)],
            ),
            (
                lambda: metrics.SparseCategoricalCrossentropy(from_logits=True),
                [(labels, logits, w)],
            ),
            (
                lambda: metrics.SparseCategoricalCrossentropy(ignore_class=1),
                [(labels, probs, w)],
            ),
            (metrics.MeanSquaredError, [(seq_t, seq_p, rng.uniform(size=(4, 5)))]),
            (metrics.RootMeanSquaredError, [(seq_t, seq_p, rng.uniform(size=(4, 5)))]),
            (metrics.CosineSimilarity, [(seq_t, seq_p, None)]),
            (metrics.LogCoshError, [(seq_t, seq_p, None)]),
            (metrics.Hinge, [(binary, logits, w)]),
            (metrics.SquaredHinge, [(signed(binary), logits, None)]),
            (metrics.CategoricalHinge, [(one_hot, logits, w)]),
            (metrics.KLDivergence, [(one_hot, np.abs(logits), None)]),
            (metrics.Poisson, [(np.abs(seq_t), np.abs(seq_p), None)]),
            (metrics.MeanAbsolutePercentageError, [(seq_t, seq_p, None)]),
            (metrics.MeanSquaredLogarithmicError, [(np.abs(seq_t), np.abs(seq_p), None)]),
        ],
        atol=1e-5,
        rtol=1e-5,
    )
