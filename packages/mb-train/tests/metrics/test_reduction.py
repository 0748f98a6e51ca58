"""`Sum`, `Mean` and `MeanMetricWrapper` against NumPy, and against Keras 3 for
weights of other ranks than the values."""

import numpy as np
import pytest

from mb_layers import set_keras_mask
from mb_ops import ops
from mb_train import metrics


def np_weighted_mean(batches):
    """sum(w * v) / sum(w) over every batch (per-sample values, per-sample weights)."""
    total = count = 0.0
    for v, w in batches:
        w = np.ones(np.size(v)) if w is None else np.asarray(w)
        total += float(np.sum(np.asarray(v) * w))
        count += float(np.sum(w))
    return total / count


def test_mean_accumulates_weighted_batches(support, rng):
    m = metrics.Mean()
    batches = [
        (rng.normal(size=8), None),
        (rng.normal(size=5), rng.uniform(size=5)),
        ([2.0], [0.0]),
    ]
    for values, weight in batches:
        m.update_state(values, sample_weight=weight)
    assert support.to_numpy(m.result()) == pytest.approx(np_weighted_mean(batches), rel=1e-5)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0  # no division by zero before any update


def test_mean_of_2d_values_averages_each_sample_first(support, rng):
    values = rng.normal(size=(6, 4)).astype("float32")
    weights = rng.uniform(size=6).astype("float32")
    m = metrics.Mean()
    m.update_state(values, sample_weight=weights)
    expected = np.sum(values.mean(axis=1) * weights) / weights.sum()
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-5)


def test_sum_accumulates_weighted_values(support, rng):
    m = metrics.Sum()
    a, b = rng.normal(size=(3, 2)), rng.normal(size=4)
    wb = rng.uniform(size=4)
    m.update_state(a)
    m.update_state(b, sample_weight=wb)
    assert support.to_numpy(m.result()) == pytest.approx(a.sum() + (b * wb).sum(), rel=1e-5)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


def test_weights_of_other_ranks_match_keras(support, rng):
    values = rng.normal(size=(4, 3, 2)).astype("float32")
    values_2d = rng.normal(size=(5, 3)).astype("float32")

    def w(*shape):
        return rng.uniform(size=shape).astype("float32")

    support.assert_matches_keras(
        [
            (metrics.Mean, [(values, w(4, 3)), (values, w(4, 1)), (values, None)]),
            (metrics.Mean, [(values_2d, w(5, 3)), (values_2d, w(5))]),
            (metrics.Sum, [(values, w(4, 3)), (values_2d, w(5, 1)), (values_2d, None)]),
        ],
        atol=1e-6,
        rtol=1e-5,
    )


def absolute_error(y_true, y_pred):
    return ops.mean(ops.abs(ops.convert_to_tensor(y_true) - y_pred), axis=-1)


def test_mean_metric_wrapper_passes_kwargs_and_weights(support, rng):
    def scaled(y_true, y_pred, scale):
        return scale * ops.mean(ops.abs(ops.convert_to_tensor(y_true) - y_pred), axis=-1)

    m = metrics.MeanMetricWrapper(scaled, name="scaled", scale=3.0)
    t1, p1 = rng.normal(size=(5, 2)).astype("float32"), rng.normal(size=(5, 2))
    t2, p2 = rng.normal(size=(3, 2)).astype("float32"), rng.normal(size=(3, 2))
    w2 = rng.uniform(size=3)
    m.update_state(t1, ops.convert_to_tensor(p1, "float32"))
    m.update_state(t2, ops.convert_to_tensor(p2, "float32"), sample_weight=w2)
    per1 = 3.0 * np.abs(t1 - p1).mean(axis=-1)
    per2 = 3.0 * np.abs(t2 - p2).mean(axis=-1)
    expected = (per1.sum() + (per2 * w2).sum()) / (5 + w2.sum())
    assert m.name == "scaled"
    assert support.to_numpy(m.result()) == pytest.approx(expected, rel=1e-5)
    assert m.get_config()["scale"] == 3.0


def test_mean_metric_wrapper_uses_the_predictions_mask(support):
    y_pred = ops.convert_to_tensor([[1.0], [2.0], [3.0], [4.0]])
    set_keras_mask(y_pred, ops.convert_to_tensor([True, False, True, False]))
    m = metrics.MeanMetricWrapper(lambda t, p: ops.squeeze(p, -1))
    m.update_state(np.zeros((4, 1)), y_pred)
    assert support.to_numpy(m.result()) == pytest.approx(2.0)  # (1 + 3) / 2
    m.reset_state()
    m.update_state(np.zeros((4, 1)), y_pred, sample_weight=[1.0, 1.0, 3.0, 1.0])
    assert support.to_numpy(m.result()) == pytest.approx((1 + 9) / 4)


def test_mean_metric_wrapper_rejects_a_non_callable():
    with pytest.raises(TypeError, match="MeanMetricWrapper needs a function"):
        metrics.MeanMetricWrapper("not a function")


def test_mean_metric_wrapper_default_name_is_unique():
    a = metrics.MeanMetricWrapper(absolute_error)
    b = metrics.MeanMetricWrapper(absolute_error)
    assert a.name.startswith("mean_metric_wrapper") and a.name != b.name
