"""SensitivityAtSpecificity & co against NumPy (counts at evenly spaced thresholds,
best rate where the constraint holds) and Keras 3."""

import numpy as np
import pytest

from mb_train import metrics


def np_rates(batches, num_thresholds, class_id=None):
    if num_thresholds == 1:
        ths = np.array([0.5])
    else:
        ths = np.array(
            [0.0] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
        )
    tp = np.zeros(len(ths))
    fp, tn, fn = tp.copy(), tp.copy(), tp.copy()
    for t, p, w in batches:
        t, p = np.asarray(t, float), np.asarray(p, float)
        w = np.ones(len(t)) if w is None else np.asarray(w, float)
        if class_id is not None:
            t, p = t[:, class_id], p[:, class_id]
        pos, pred = t != 0, p[None] > ths[:, None]
        tp += np.sum(np.where(pos & pred, w, 0), axis=1)
        fp += np.sum(np.where(~pos & pred, w, 0), axis=1)
        tn += np.sum(np.where(~pos & ~pred, w, 0), axis=1)
        fn += np.sum(np.where(pos & ~pred, w, 0), axis=1)

    def div(a, b):
        return np.divide(a, b, out=np.zeros_like(a), where=b != 0)

    recall = div(tp, tp + fn)
    return {
        "sensitivity": recall,
        "recall": recall,
        "specificity": div(tn, tn + fp),
        "precision": div(tp, tp + fp),
    }


CASES = [
    (metrics.SensitivityAtSpecificity, "specificity", "sensitivity"),
    (metrics.SpecificityAtSensitivity, "sensitivity", "specificity"),
    (metrics.PrecisionAtRecall, "recall", "precision"),
    (metrics.RecallAtPrecision, "precision", "recall"),
]


@pytest.fixture
def batches(rng):
    def batch(n, weighted):
        t = rng.integers(0, 2, size=n)
        p = np.clip(0.3 * t + 0.7 * rng.uniform(size=n), 0, 1).astype("float32")
        return t, p, rng.uniform(size=n).astype("float32") if weighted else None

    return [batch(30, True), batch(17, False)]


@pytest.mark.parametrize("cls, constrained, maximized", CASES)
@pytest.mark.parametrize("value, num_thresholds", [(0.5, 200), (0.8, 37), (0.3, 1), (1.0, 11)])
def test_best_rate_under_the_constraint(
    support, batches, cls, constrained, maximized, value, num_thresholds
):
    m = cls(value, num_thresholds=num_thresholds)
    for t, p, w in batches:
        m.update_state(t, p, sample_weight=w)
    rates = np_rates(batches, num_thresholds)
    feasible = rates[constrained] >= value
    expected = np.max(np.where(feasible, rates[maximized], 0.0), initial=0.0)
    assert support.to_numpy(m.result()) == pytest.approx(expected, abs=1e-6)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


@pytest.mark.parametrize("cls, constrained, maximized", CASES)
def test_class_id_picks_one_column(support, rng, cls, constrained, maximized):
    batches = [
        (rng.integers(0, 2, size=(25, 3)), rng.uniform(size=(25, 3)).astype("float32"), None)
    ]
    m = cls(0.4, num_thresholds=50, class_id=2)
    m.update_state(*batches[0][:2])
    rates = np_rates(batches, 50, class_id=2)
    expected = np.max(np.where(rates[constrained] >= 0.4, rates[maximized], 0.0))
    assert support.to_numpy(m.result()) == pytest.approx(expected, abs=1e-6)


def test_matches_keras(support, batches, rng):
    multi = [(rng.integers(0, 2, size=(20, 3)), rng.uniform(size=(20, 3)).astype("float32"), None)]
    cases = []
    for cls, _, _ in CASES:
        cases.append((lambda cls=cls: cls(0.6), batches))
        cases.append((lambda cls=cls: cls(0.25, num_thresholds=13, class_id=1), multi))
    support.assert_matches_keras(cases, atol=1e-6)


@pytest.mark.parametrize("cls, constrained, _", CASES)
def test_out_of_range_constraints_are_rejected(cls, constrained, _):
    with pytest.raises(
        ValueError, match=rf"Argument `{constrained}` .* must be in the range \[0, 1\]"
    ):
        cls(1.5)
    with pytest.raises(ValueError, match="`num_thresholds` must be an integer > 0"):
        cls(0.5, num_thresholds=0)


@pytest.mark.parametrize("cls, constrained, _", CASES)
def test_config_uses_the_keras_argument_name(cls, constrained, _):
    m = cls(0.7, num_thresholds=20, class_id=3, name="x")
    config = m.get_config()
    assert config == {
        "name": "x",
        "dtype": "float32",
        "class_id": 3,
        "num_thresholds": 20,
        constrained: 0.7,
    }
    assert cls.from_config(config).get_config() == config
