"""TruePositives & co, Precision and Recall: NumPy counts at thresholds (several weighted
batches, top_k, class_id) and Keras 3 on the same inputs."""

import numpy as np
import pytest

from mb_train import metrics


def np_ratio(a, b):
    """a / b, 0 where b is 0 (as the metrics divide)."""
    return np.divide(a, b, out=np.zeros_like(a), where=b != 0)


def np_counts(batches, thresholds, top_k=None, class_id=None):
    """Weighted tp, fp, tn, fn per threshold; a score counts when above the threshold."""
    thresholds = np.asarray(thresholds, dtype="float64")
    tp = np.zeros(len(thresholds))
    fp, tn, fn = tp.copy(), tp.copy(), tp.copy()
    for t, p, w in batches:
        t = np.asarray(t, dtype="float64")
        p = np.asarray(p, dtype="float64")
        if t.ndim == p.ndim - 1:
            t = t[..., None]
        w = np.ones(p.shape[0]) if w is None else np.asarray(w, dtype="float64")
        w = np.broadcast_to(w.reshape((-1,) + (1,) * (p.ndim - 1)), p.shape)
        if top_k is not None:
            keep = np.argsort(-p, axis=-1, kind="stable")[..., :top_k]
            mask = np.zeros_like(p, dtype=bool)
            np.put_along_axis(mask, keep, True, axis=-1)
            p = np.where(mask, p, -1e10)
        if class_id is not None:
            t, p, w = t[..., class_id], p[..., class_id], w[..., class_id]
        pos = (t != 0).ravel()
        p, w = p.ravel(), w.ravel()
        for i, th in enumerate(thresholds):
            pred = p > th
            tp[i] += w[pos & pred].sum()
            fp[i] += w[~pos & pred].sum()
            tn[i] += w[~pos & ~pred].sum()
            fn[i] += w[pos & ~pred].sum()
    return tp, fp, tn, fn


@pytest.fixture
def binary_batches(rng):
    def batch(n, weighted=True):
        labels = rng.integers(0, 2, size=(n, 1))
        scores = rng.uniform(size=(n, 1)).astype("float32")
        return labels, scores, rng.uniform(size=n).astype("float32") if weighted else None

    return [batch(20), batch(11, weighted=False), batch(7)]


@pytest.mark.parametrize("thresholds", [None, 0.3, [0.1, 0.5, 0.9], [0.0, 0.25, 0.5, 0.75, 1.0]])
@pytest.mark.parametrize(
    "cls, index",
    [
        (metrics.TruePositives, 0),
        (metrics.FalsePositives, 1),
        (metrics.TrueNegatives, 2),
        (metrics.FalseNegatives, 3),
    ],
)
def test_counts_at_thresholds(support, binary_batches, cls, index, thresholds):
    m = cls(thresholds=thresholds)
    for t, p, w in binary_batches:
        m.update_state(t, p, sample_weight=w)
    ths = [0.5] if thresholds is None else np.atleast_1d(thresholds)
    expected = np_counts(binary_batches, ths)[index]
    got = support.to_numpy(m.result())
    assert got.shape == (() if np.ndim(thresholds) == 0 else (len(ths),))
    np.testing.assert_allclose(got, expected.reshape(got.shape), rtol=1e-5, atol=1e-5)
    m.reset_state()
    np.testing.assert_array_equal(support.to_numpy(m.result()), np.zeros(got.shape))


@pytest.mark.parametrize("thresholds", [None, [0.2, 0.6], [0.0, 0.5, 1.0]])
def test_precision_and_recall_at_thresholds(support, binary_batches, thresholds):
    ths = [0.5] if thresholds is None else thresholds
    tp, fp, _, fn = np_counts(binary_batches, ths)
    precision = metrics.Precision(thresholds=thresholds)
    recall = metrics.Recall(thresholds=thresholds)
    for t, p, w in binary_batches:
        precision.update_state(t, p, sample_weight=w)
        recall.update_state(t, p, sample_weight=w)
    shape = () if thresholds is None else (len(ths),)
    np.testing.assert_allclose(
        support.to_numpy(precision.result()), np_ratio(tp, tp + fp).reshape(shape), rtol=1e-5
    )
    np.testing.assert_allclose(
        support.to_numpy(recall.result()), np_ratio(tp, tp + fn).reshape(shape), rtol=1e-5
    )
    precision.reset_state()
    assert np.all(support.to_numpy(precision.result()) == 0.0)


@pytest.fixture
def multiclass_batches(rng):
    def batch(n):
        labels = (rng.uniform(size=(n, 5)) > 0.6).astype("float32")
        scores = rng.uniform(size=(n, 5)).astype("float32")
        return labels, scores, rng.uniform(size=n).astype("float32")

    return [batch(12), batch(6)]


@pytest.mark.parametrize("top_k, class_id", [(2, None), (None, 3), (2, 1), (1, None)])
def test_precision_recall_top_k_and_class_id(support, multiclass_batches, top_k, class_id):
    ths = [0.5] if top_k is None else [-1e10]
    tp, fp, _, fn = np_counts(multiclass_batches, ths, top_k=top_k, class_id=class_id)
    precision = metrics.Precision(top_k=top_k, class_id=class_id)
    recall = metrics.Recall(top_k=top_k, class_id=class_id)
    for t, p, w in multiclass_batches:
        precision.update_state(t, p, sample_weight=w)
        recall.update_state(t, p, sample_weight=w)
    assert support.to_numpy(precision.result()) == pytest.approx(tp[0] / (tp[0] + fp[0]), rel=1e-5)
    assert support.to_numpy(recall.result()) == pytest.approx(tp[0] / (tp[0] + fn[0]), rel=1e-5)


def test_precision_is_zero_without_positive_predictions(support):
    m = metrics.Precision()
    m.update_state([1, 0], [0.1, 0.2])
    assert support.to_numpy(m.result()) == 0.0


def test_matches_keras(support, binary_batches, multiclass_batches):
    support.assert_matches_keras(
        [
            (lambda: metrics.TruePositives([0.0, 0.5, 1.0]), binary_batches),
            (lambda: metrics.FalseNegatives([0.3, 0.8]), binary_batches),
            (lambda: metrics.TrueNegatives(), binary_batches),
            (lambda: metrics.FalsePositives(0.4), binary_batches),
            (lambda: metrics.Precision([0.2, 0.4, 0.6]), binary_batches),
            (lambda: metrics.Recall([0.0, 0.25, 0.5, 0.75, 1.0]), binary_batches),
            (lambda: metrics.Precision(top_k=2), multiclass_batches),
            (lambda: metrics.Recall(top_k=2, class_id=1), multiclass_batches),
            (lambda: metrics.Precision(class_id=4, thresholds=[0.3, 0.7]), multiclass_batches),
        ],
        atol=1e-5,
        rtol=1e-5,
    )


@pytest.mark.parametrize("bad", [1.5, [0.2, -0.1], [None]])
def test_thresholds_out_of_range_are_rejected(bad):
    with pytest.raises(ValueError, match=r"Threshold values must be in \[0, 1\]"):
        metrics.Precision(thresholds=bad)
    with pytest.raises(ValueError, match=r"Threshold values must be in \[0, 1\]"):
        metrics.TruePositives(thresholds=bad)


def test_bad_top_k_and_class_id_are_clear_errors():
    with pytest.raises(ValueError, match="top_k must be a positive int"):
        metrics.Recall(top_k=0)
    with pytest.raises(ValueError, match=r"With class_id, y_pred must have shape"):
        metrics.Precision(class_id=1).update_state([1, 0], [0.3, 0.7])


def test_configs_keep_the_arguments():
    m = metrics.Precision(thresholds=[0.2, 0.4], top_k=3, class_id=1, name="p")
    assert m.get_config() == {
        "name": "p",
        "dtype": "float32",
        "thresholds": [0.2, 0.4],
        "top_k": 3,
        "class_id": 1,
    }
    assert metrics.TruePositives(0.3).get_config()["thresholds"] == 0.3
