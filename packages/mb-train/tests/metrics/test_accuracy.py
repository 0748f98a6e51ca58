"""The accuracy family against NumPy formulas (several weighted batches, reset) and
against Keras 3 for label shapes Keras squeezes or expands."""

import numpy as np
import pytest

from mb_train import metrics


def weighted(batches, per_sample):
    """sum(w * per_sample(t, p)) / sum(w) over the batches."""
    total = count = 0.0
    for t, p, w in batches:
        values = per_sample(np.asarray(t), np.asarray(p))
        w = np.ones(len(values)) if w is None else np.asarray(w)
        total += float(np.sum(values * w))
        count += float(np.sum(w))
    return total / count


def top_k_hit(label, scores, k):
    """1.0 when `label`'s score is among the k largest (ties counted as Keras does: any)."""
    return float(np.sum(scores > scores[label]) < k)


def run(metric, batches):
    for t, p, w in batches:
        metric.update_state(t, p, sample_weight=w)
    return metric


@pytest.fixture
def classification(rng):
    def batch(n, c=4, weighted=True):
        labels = rng.integers(0, c, size=n)
        scores = rng.uniform(size=(n, c)).astype("float32")
        w = rng.uniform(size=n).astype("float32") if weighted else None
        return labels, scores, w

    return [batch(16), batch(9, weighted=False), batch(5)]


def test_accuracy_counts_exact_matches(support, rng):
    batches = [
        (rng.integers(0, 3, size=(8, 1)), rng.integers(0, 3, size=(8, 1)), rng.uniform(size=8)),
        (rng.integers(0, 3, size=(6, 1)), rng.integers(0, 3, size=(6, 1)), None),
    ]
    m = run(metrics.Accuracy(), batches)
    expected = weighted(batches, lambda t, p: (t == p)[:, 0].astype(float))
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-5)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


@pytest.mark.parametrize("threshold", [0.5, 0.3])
def test_binary_accuracy_thresholds_the_scores(support, rng, threshold):
    batches = [
        (rng.integers(0, 2, size=(10, 1)), rng.uniform(size=(10, 1)), rng.uniform(size=10)),
        (rng.integers(0, 2, size=(7, 1)), rng.uniform(size=(7, 1)), None),
    ]
    m = run(metrics.BinaryAccuracy(threshold=threshold), batches)
    expected = weighted(batches, lambda t, p: ((p > threshold) == t)[:, 0].astype(float))
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-5)


def test_categorical_accuracy_compares_arg_maxes(support, classification):
    one_hot = [(np.eye(4)[t], p, w) for t, p, w in classification]
    m = run(metrics.CategoricalAccuracy(), one_hot)
    expected = weighted(classification, lambda t, p: (p.argmax(-1) == t).astype(float))
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-5)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


def test_sparse_categorical_accuracy_takes_labels_with_or_without_trailing_axis(
    support, classification
):
    expected = weighted(classification, lambda t, p: (p.argmax(-1) == t).astype(float))
    flat = run(metrics.SparseCategoricalAccuracy(), classification)
    columns = [(t[:, None], p, w) for t, p, w in classification]
    column = run(metrics.SparseCategoricalAccuracy(), columns)
    assert support.to_numpy(flat.result()) == pytest.approx(expected, rel=1e-5)
    assert support.to_numpy(column.result()) == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_top_k_accuracies(support, classification, k):
    def per_sample(t, p):
        return np.array([top_k_hit(label, scores, k) for label, scores in zip(t, p, strict=True)])

    expected = weighted(classification, per_sample)
    sparse = run(metrics.SparseTopKCategoricalAccuracy(k=k), classification)
    dense = run(
        metrics.TopKCategoricalAccuracy(k=k), [(np.eye(4)[t], p, w) for t, p, w in classification]
    )
    assert support.to_numpy(sparse.result()) == pytest.approx(expected, rel=1e-5)
    assert support.to_numpy(dense.result()) == pytest.approx(expected, rel=1e-5)


def test_sparse_top_k_from_sorted_ids(support, rng):
    labels = np.array([2, 1, 0, 3])
    sorted_ids = np.array([[1, 2, 0], [0, 3, 2], [0, 1, 2], [1, 2, 0]])
    m = metrics.SparseTopKCategoricalAccuracy(k=2, from_sorted_ids=True)
    m.update_state(labels, sorted_ids, sample_weight=[1.0, 1.0, 2.0, 1.0])
    # Hits in the first two ids: yes, no, yes, no -> (1 + 2) / 5.
    assert support.to_numpy(m.result()) == pytest.approx(3 / 5)
    assert m.get_config()["from_sorted_ids"] is True
    assert "from_sorted_ids" not in metrics.SparseTopKCategoricalAccuracy().get_config()


def test_metric_functions_return_one_value_per_sample(support):
    scores = np.array([[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]], dtype="float32")
    got = support.to_numpy(metrics.sparse_categorical_accuracy([2, 1], scores))
    np.testing.assert_array_equal(got, [0.0, 1.0])
    got = support.to_numpy(metrics.categorical_accuracy(np.eye(3)[[2, 1]], scores))
    np.testing.assert_array_equal(got, [0.0, 1.0])
    got = support.to_numpy(metrics.top_k_categorical_accuracy(np.eye(3)[[2, 1]], scores, k=2))
    np.testing.assert_array_equal(got, [1.0, 1.0])
    got = support.to_numpy(metrics.sparse_top_k_categorical_accuracy([2, 1], scores, k=1))
    np.testing.assert_array_equal(got, [0.0, 1.0])
    got = support.to_numpy(metrics.binary_accuracy([[1], [0]], np.array([[0.8], [0.6]], "float32")))
    np.testing.assert_array_equal(got, [[1.0], [0.0]])


def test_odd_shapes_match_keras(support, rng):
    seq_labels = rng.integers(0, 3, size=(4, 5))
    seq_scores = rng.uniform(size=(4, 5, 3)).astype("float32")
    seq_weights = rng.uniform(size=(4, 5)).astype("float32")
    flat_binary = rng.integers(0, 2, size=6)
    flat_scores = rng.uniform(size=(6, 1)).astype("float32")
    support.assert_matches_keras(
        [
            (metrics.SparseCategoricalAccuracy, [(seq_labels, seq_scores, seq_weights)]),
            (metrics.SparseTopKCategoricalAccuracy, [(seq_labels, seq_scores, None)]),
            (
                lambda: metrics.TopKCategoricalAccuracy(k=2),
                [(np.eye(3)[seq_labels], seq_scores, seq_weights)],
            ),
            (metrics.CategoricalAccuracy, [(np.eye(3)[seq_labels], seq_scores, None)]),
            (metrics.BinaryAccuracy, [(flat_binary, flat_scores, None)]),
            (metrics.Accuracy, [(flat_binary, flat_binary[::-1].copy(), None)]),
        ],
        atol=1e-6,
    )
