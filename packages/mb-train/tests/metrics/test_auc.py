"""AUC: NumPy formulas over NumPy threshold counts, the exact ROC AUC (Mann-Whitney)
as an independent check, and Keras 3 for every curve/summation/multi-label mode."""

import numpy as np
import pytest

from mb_train import metrics

EPS = 1e-7


def np_thresholds(num_thresholds, thresholds=None):
    inner = (
        sorted(thresholds)
        if thresholds is not None
        else [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    )
    return np.array([-EPS, *inner, 1 + EPS])


def np_counts(t, p, w, thresholds):
    """(tp, fp, tn, fn) per threshold (rows) and label (columns)."""
    pos = t != 0
    pred = p[None] > thresholds.reshape((-1,) + (1,) * p.ndim)
    w = np.broadcast_to(w, p.shape)
    tp = np.sum(np.where(pos & pred, w, 0), axis=1)
    fp = np.sum(np.where(~pos & pred, w, 0), axis=1)
    tn = np.sum(np.where(~pos & ~pred, w, 0), axis=1)
    fn = np.sum(np.where(pos & ~pred, w, 0), axis=1)
    return tp, fp, tn, fn


def div(a, b):
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    return np.divide(a, b, out=np.zeros_like(a), where=b != 0)


def np_auc(counts, curve, summation):
    tp, fp, tn, fn = counts
    if curve == "PR" and summation == "interpolation":
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = div(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[:-1] > 0) & (p[1:] > 0), div(p[:-1], np.maximum(p[1:], 0)), 1.0)
        return np.sum(div(slope * (dtp + intercept * np.log(ratio)), tp[1:] + fn[1:]), axis=0)
    if curve == "ROC":
        x, y = div(fp, fp + tn), div(tp, tp + fn)
    elif curve == "PR":
        x, y = div(tp, tp + fn), div(tp, tp + fp)
    else:
        scale = div(tp + fn, tn + fp)
        x = np.maximum(np.where(tp == 0, 0.0, 1 - scale * div(fn, tp)), 0)
        y = np.where(tp == 0, 1.0, 1 - scale * div(fp, tp))
    heights = {
        "interpolation": (y[:-1] + y[1:]) / 2,
        "minoring": np.minimum(y[:-1], y[1:]),
        "majoring": np.maximum(y[:-1], y[1:]),
    }[summation]
    return np.sum((x[:-1] - x[1:]) * heights, axis=0)


@pytest.fixture
def batches(rng):
    def batch(n, weighted):
        labels = rng.integers(0, 2, size=n)
        # Scores that carry some signal, so the curves are not trivial.
        scores = np.clip(0.35 * labels + rng.uniform(size=n) * 0.65, 0, 1).astype("float32")
        return labels, scores, rng.uniform(size=n).astype("float32") if weighted else None

    return [batch(40, True), batch(25, False), batch(13, True)]


def stacked(batches):
    t = np.concatenate([b[0] for b in batches])
    p = np.concatenate([b[1] for b in batches]).astype("float64")
    w = np.concatenate([np.ones(len(b[0])) if b[2] is None else b[2] for b in batches])
    return t, p, w


@pytest.mark.parametrize("curve", ["ROC", "PR", "PRGAIN"])
@pytest.mark.parametrize("summation", ["interpolation", "minoring", "majoring"])
def test_auc_matches_numpy(support, batches, curve, summation):
    m = metrics.AUC(num_thresholds=50, curve=curve, summation_method=summation)
    for t, p, w in batches:
        m.update_state(t, p, sample_weight=w)
    t, p, w = stacked(batches)
    expected = np_auc(np_counts(t, p, w, np_thresholds(50)), curve, summation)
    assert support.to_numpy(m.result()) == pytest.approx(expected, abs=1e-5)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


def test_interpolate_pr_auc_is_the_pr_area_whatever_the_curve(support, batches):
    roc = metrics.AUC(num_thresholds=50)  # curve="ROC": result() is the ROC area
    assert support.to_numpy(roc.interpolate_pr_auc()) == 0.0  # nothing seen yet
    for t, p, w in batches:
        roc.update_state(t, p, sample_weight=w)
    t, p, w = stacked(batches)
    expected = np_auc(np_counts(t, p, w, np_thresholds(50)), "PR", "interpolation")
    assert support.to_numpy(roc.interpolate_pr_auc()) == pytest.approx(expected, abs=1e-5)
    assert support.to_numpy(roc.result()) != pytest.approx(expected, abs=1e-3)


def test_roc_auc_approaches_the_exact_value(support, batches):
    t, p, w = stacked(batches)
    pos, neg = p[t == 1], p[t == 0]
    wp, wn = w[t == 1], w[t == 0]
    greater = (pos[:, None] > neg[None]) + 0.5 * (pos[:, None] == neg[None])
    exact = np.sum(greater * wp[:, None] * wn[None]) / (wp.sum() * wn.sum())
    m = metrics.AUC(num_thresholds=2000)
    for batch_t, batch_p, batch_w in batches:
        m.update_state(batch_t, batch_p, sample_weight=batch_w)
    assert support.to_numpy(m.result()) == pytest.approx(exact, abs=2e-3)


def test_explicit_thresholds_and_label_weights(support, rng):
    t = rng.integers(0, 2, size=(30, 3))
    p = rng.uniform(size=(30, 3)).astype("float32")
    ths = [0.7, 0.2, 0.45]
    m = metrics.AUC(thresholds=ths, label_weights=[1.0, 2.0, 0.5])
    m.update_state(t, p)
    expected = np_auc(
        np_counts(
            t.ravel(), p.ravel().astype(float), np.tile([1.0, 2.0, 0.5], 30), np_thresholds(0, ths)
        ),
        "ROC",
        "interpolation",
    )
    assert support.to_numpy(m.result()) == pytest.approx(expected, abs=1e-5)
    assert m.num_thresholds == 5
    assert m.get_config()["thresholds"] == sorted(ths)


@pytest.mark.parametrize("label_weights", [None, [0.5, 1.0, 2.0, 0.0]])
@pytest.mark.parametrize("curve", ["ROC", "PR"])
def test_multi_label_averages_one_curve_per_label(support, rng, curve, label_weights):
    t1, p1 = rng.integers(0, 2, size=(20, 4)), rng.uniform(size=(20, 4)).astype("float32")
    t2, p2 = rng.integers(0, 2, size=(9, 4)), rng.uniform(size=(9, 4)).astype("float32")
    w2 = rng.uniform(size=9).astype("float32")
    m = metrics.AUC(num_thresholds=30, curve=curve, multi_label=True, label_weights=label_weights)
    m.update_state(t1, p1)
    m.update_state(t2, p2, sample_weight=w2)
    t = np.concatenate([t1, t2])
    p = np.concatenate([p1, p2]).astype(float)
    w = np.concatenate([np.ones(20), w2])[:, None]
    per_label = np_auc(np_counts(t, p, w, np_thresholds(30)), curve, "interpolation")
    lw = np.ones(4) if label_weights is None else np.asarray(label_weights)
    expected = np.sum(per_label * lw) / lw.sum()
    assert support.to_numpy(m.result()) == pytest.approx(expected, abs=1e-5)


def test_multi_label_builds_on_the_first_batch_unless_num_labels_is_given():
    lazy = metrics.AUC(multi_label=True)
    assert lazy.variables == []
    lazy.update_state(np.zeros((2, 3)), np.zeros((2, 3), "float32"))
    assert [v.shape for v in lazy.variables] == [(200, 3)] * 4
    eager = metrics.AUC(multi_label=True, num_labels=5, num_thresholds=10)
    assert [v.shape for v in eager.variables] == [(10, 5)] * 4


def test_from_logits_applies_a_sigmoid(support, batches):
    logits = [(t, np.log(p + 1e-3) - np.log1p(1e-3 - p), w) for t, p, w in batches]
    a = metrics.AUC(from_logits=True)
    b = metrics.AUC()
    for t, z, w in logits:
        a.update_state(t, z.astype("float32"), sample_weight=w)
        b.update_state(t, 1 / (1 + np.exp(-z.astype("float32"))), sample_weight=w)
    assert support.to_numpy(a.result()) == pytest.approx(support.to_numpy(b.result()), abs=1e-6)


def test_matches_keras(support, batches, rng):
    multi = [
        (rng.integers(0, 2, size=(15, 3)), rng.uniform(size=(15, 3)).astype("float32"), None),
        (
            rng.integers(0, 2, size=(6, 3)),
            rng.uniform(size=(6, 3)).astype("float32"),
            rng.uniform(size=6),
        ),
    ]
    cases = [
        (lambda c=c, s=s: metrics.AUC(num_thresholds=40, curve=c, summation_method=s), batches)
        for c in ("ROC", "PR", "PRGAIN")
        for s in ("interpolation", "minoring", "majoring")
    ]
    cases += [
        (lambda: metrics.AUC(), batches),
        (lambda: metrics.AUC(thresholds=[0.1, 0.4, 0.5, 0.8]), batches),
        (lambda: metrics.AUC(multi_label=True, curve="PR"), multi),
        (lambda: metrics.AUC(multi_label=True, label_weights=[1.0, 0.0, 3.0]), multi),
        (lambda: metrics.AUC(label_weights=[1.0, 0.0, 3.0], num_thresholds=17), multi),
        (lambda: metrics.AUC(from_logits=True), [(t, (p - 0.5) * 6, w) for t, p, w in batches]),
    ]
    support.assert_matches_keras(cases, atol=1e-5)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match='Invalid AUC curve value: "XY"'):
        metrics.AUC(curve="XY")
    with pytest.raises(ValueError, match="Invalid AUC summation method"):
        metrics.AUC(summation_method="trapezoid")
    with pytest.raises(ValueError, match="`num_thresholds` must be an integer > 1"):
        metrics.AUC(num_thresholds=1)
    with pytest.raises(ValueError, match="`num_labels` is needed only when `multi_label`"):
        metrics.AUC(num_labels=3)
    with pytest.raises(ValueError, match=r"needs y_pred of shape \(batch, num_labels\)"):
        metrics.AUC(multi_label=True).update_state(np.zeros(4), np.zeros(4, "float32"))
    with pytest.raises(ValueError, match="label_weights must be non-negative"):
        metrics.AUC(label_weights=[1.0, -1.0])


def test_config_round_trip_and_keras_tensor_label_weights():
    m = metrics.AUC(curve="pr", summation_method="Minoring", label_weights=[1, 2], name="a")
    config = m.get_config()
    assert config["curve"] == "PR" and config["summation_method"] == "minoring"
    assert config["label_weights"] == [1.0, 2.0]
    assert metrics.AUC.from_config(config).get_config() == config
    # Keras writes label weights as a tensor dict.
    keras_form = {"class_name": "__tensor__", "config": {"value": [1.0, 2.0], "dtype": "float32"}}
    again = metrics.AUC.from_config({**config, "label_weights": keras_form})
    assert again.get_config()["label_weights"] == [1.0, 2.0]
