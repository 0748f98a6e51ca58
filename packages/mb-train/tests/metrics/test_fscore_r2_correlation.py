"""F-scores, R² and the correlation metrics against NumPy formulas and Keras 3."""

import numpy as np
import pytest

from mb_train import metrics

EPS = 1e-7


def np_fbeta(batches, beta, threshold, average):
    axis = None if average == "micro" else 0
    tp = fp = fn = support_w = 0.0
    for t, p, w in batches:
        t, p = np.asarray(t, float), np.asarray(p, float)
        if threshold is None:
            pred = (p >= p.max(-1, keepdims=True)) & (np.abs(p) > 1e-9)
        else:
            pred = p > threshold
        pred = pred.astype(float)
        w = np.ones((len(t), 1)) if w is None else np.asarray(w, float)[:, None]
        tp = tp + np.sum(pred * t * w, axis=axis)
        fp = fp + np.sum(pred * (1 - t) * w, axis=axis)
        fn = fn + np.sum((1 - pred) * t * w, axis=axis)
        support_w = support_w + np.sum(t * w, axis=axis)
    precision = tp / (tp + fp + EPS)
    recall = tp / (tp + fn + EPS)
    score = (1 + beta**2) * precision * recall / (beta**2 * precision + recall + EPS)
    if average == "weighted":
        return np.sum(score * support_w / (np.sum(support_w) + EPS))
    if average is not None:
        return np.mean(score)
    return score


@pytest.fixture
def multilabel(rng):
    def batch(n, weighted):
        t = (rng.uniform(size=(n, 4)) > 0.5).astype("float32")
        p = rng.uniform(size=(n, 4)).astype("float32")
        return t, p, rng.uniform(size=n).astype("float32") if weighted else None

    return [batch(20, True), batch(9, False)]


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("beta, threshold", [(1.0, None), (2.0, 0.5), (0.5, 0.3)])
def test_fbeta_score(support, multilabel, average, beta, threshold):
    m = metrics.FBetaScore(average=average, beta=beta, threshold=threshold)
    for t, p, w in multilabel:
        m.update_state(t, p, sample_weight=w)
    expected = np_fbeta(multilabel, beta, threshold, average)
    np.testing.assert_allclose(support.to_numpy(m.result()), expected, atol=1e-6)
    m.reset_state()
    np.testing.assert_array_equal(support.to_numpy(m.result()), np.zeros(np.shape(expected)))


def test_f1_is_fbeta_with_beta_one(support, multilabel):
    m = metrics.F1Score(average="macro", threshold=0.4)
    for t, p, w in multilabel:
        m.update_state(t, p, sample_weight=w)
    assert support.to_numpy(m.result()) == pytest.approx(
        np_fbeta(multilabel, 1.0, 0.4, "macro"), abs=1e-6
    )
    assert "beta" not in m.get_config()


def test_fbeta_rejects_bad_arguments():
    with pytest.raises(ValueError, match="Invalid `average` argument value"):
        metrics.FBetaScore(average="mean")
    with pytest.raises(ValueError, match=r"It should be a Python float\. Received: beta=2 "):
        metrics.FBetaScore(beta=2)
    with pytest.raises(ValueError, match="It should be > 0"):
        metrics.FBetaScore(beta=-1.0)
    with pytest.raises(ValueError, match="0 < threshold <= 1"):
        metrics.FBetaScore(threshold=1.5)
    with pytest.raises(
        ValueError, match=r"expects 2D inputs with shape \(batch_size, output_dim\)"
    ):
        metrics.F1Score().update_state([1.0, 0.0], [0.3, 0.2])


def np_r2(batches, aggregation, num_regressors):
    t = np.concatenate([b[0] for b in batches]).astype(float)
    p = np.concatenate([b[1] for b in batches]).astype(float)
    w = np.concatenate(
        [np.ones(len(b[0])) if b[2] is None else np.asarray(b[2], float) for b in batches]
    )[:, None]
    mean = np.sum(w * t, 0) / np.sum(w * np.ones_like(t), 0)
    ss_tot = np.sum(w * (t - mean) ** 2, 0)
    ss_res = np.sum(w * (t - p) ** 2, 0)
    raw = 1 - ss_res / ss_tot
    if aggregation == "uniform_average":
        score = raw.mean()
    elif aggregation == "variance_weighted_average":
        score = np.sum(ss_tot * raw) / np.sum(ss_tot)
    else:
        score = raw
    n = t.size
    if num_regressors and num_regressors < n - 1:
        score = 1 - (1 - score) * (n - 1) / (n - num_regressors - 1)
    return score


@pytest.fixture
def regression(rng):
    def batch(n, weighted):
        t = rng.normal(size=(n, 3)).astype("float32")
        p = (t + 0.5 * rng.normal(size=(n, 3))).astype("float32")
        return t, p, rng.uniform(size=n).astype("float32") if weighted else None

    return [batch(15, True), batch(8, False)]


@pytest.mark.parametrize("aggregation", [None, "uniform_average", "variance_weighted_average"])
@pytest.mark.parametrize("num_regressors", [0, 4, 100])
def test_r2_score(support, regression, aggregation, num_regressors):
    m = metrics.R2Score(class_aggregation=aggregation, num_regressors=num_regressors)
    for t, p, w in regression:
        m.update_state(t, p, sample_weight=w)
    np.testing.assert_allclose(
        support.to_numpy(m.result()), np_r2(regression, aggregation, num_regressors), rtol=1e-4
    )
    m.reset_state()
    assert all(np.all(support.to_numpy(v.value) == 0) for v in m.variables)


def test_r2_rejects_bad_arguments():
    with pytest.raises(ValueError, match="Invalid value for argument `class_aggregation`"):
        metrics.R2Score(class_aggregation="median")
    with pytest.raises(ValueError, match="Expected an int >= 0"):
        metrics.R2Score(num_regressors=-1)
    with pytest.raises(ValueError, match=r"R2Score expects 2D inputs"):
        metrics.R2Score().update_state(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)))


def np_pearson(t, p):
    t = t - t.mean(-1, keepdims=True)
    p = p - p.mean(-1, keepdims=True)
    return np.mean(t / t.std(-1, keepdims=True) * p / p.std(-1, keepdims=True), -1)


def np_concordance(t, p):
    cov = np.mean((t - t.mean(-1, keepdims=True)) * (p - p.mean(-1, keepdims=True)), -1)
    norm = t.var(-1) + p.var(-1) + (t.mean(-1) - p.mean(-1)) ** 2
    return 2 * cov / (norm + EPS)


@pytest.mark.parametrize(
    "cls, fn",
    [(metrics.PearsonCorrelation, np_pearson), (metrics.ConcordanceCorrelation, np_concordance)],
)
def test_correlations_average_the_per_sample_coefficients(support, regression, cls, fn):
    m = cls()
    for t, p, w in regression:
        m.update_state(t, p, sample_weight=w)
    total = count = 0.0
    for t, p, w in regression:
        w = np.ones(len(t)) if w is None else w
        total += np.sum(fn(t.astype(float), p.astype(float)) * w)
        count += np.sum(w)
    assert support.to_numpy(m.result()) == pytest.approx(total / count, abs=1e-5)
    functional = {"PearsonCorrelation": metrics.pearson_correlation}.get(
        cls.__name__, metrics.concordance_correlation
    )
    t, p, _ = regression[0]
    np.testing.assert_allclose(support.to_numpy(functional(t, p)), fn(t, p), atol=1e-5)


def test_correlation_along_another_axis(support, regression):
    t, p, _ = regression[0]
    m = metrics.PearsonCorrelation(axis=0)
    m.update_state(t, p)
    expected = np.mean(np_pearson(t.T.astype(float), p.T.astype(float)))
    assert support.to_numpy(m.result()) == pytest.approx(expected, abs=1e-5)
    assert m.get_config()["axis"] == 0


def test_matches_keras(support, multilabel, regression):
    support.assert_matches_keras(
        [
            (lambda: metrics.F1Score(), multilabel),
            (lambda: metrics.F1Score(average="weighted", threshold=0.6), multilabel),
            (lambda: metrics.FBetaScore(average="micro", beta=3.0), multilabel),
            (lambda: metrics.FBetaScore(average="macro", beta=0.5, threshold=0.2), multilabel),
            (lambda: metrics.R2Score(), regression),
            (lambda: metrics.R2Score(class_aggregation=None), regression),
            (lambda: metrics.R2Score("variance_weighted_average", num_regressors=5), regression),
            (lambda: metrics.PearsonCorrelation(), regression),
            (lambda: metrics.ConcordanceCorrelation(), regression),
            (lambda: metrics.ConcordanceCorrelation(axis=0), regression[1:]),
        ],
        atol=1e-5,
        rtol=1e-5,
    )
