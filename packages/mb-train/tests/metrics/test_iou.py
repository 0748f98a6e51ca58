"""The IoU family against a NumPy confusion matrix (several weighted batches, ignored
class, out-of-range ids) and Keras 3."""

import warnings

import numpy as np
import pytest

from mb_train import metrics


def np_confusion(batches, num_classes, ignore_class=None):
    cm = np.zeros((num_classes, num_classes))
    for t, p, w in batches:
        t, p = np.asarray(t).ravel().astype(int), np.asarray(p).ravel().astype(int)
        w = np.ones(len(t)) if w is None else np.broadcast_to(np.asarray(w).ravel(), t.shape)
        ok = (t >= 0) & (t < num_classes) & (p >= 0) & (p < num_classes)
        if ignore_class is not None:
            ok &= t != ignore_class
        np.add.at(cm, (t[ok], p[ok]), w[ok])
    return cm


def np_iou(cm, target_class_ids):
    tp = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - tp
    ids = list(target_class_ids)
    tp, union = tp[ids], union[ids]
    valid = union > 1e-9
    iou = np.where(valid, tp / (union + 1e-7), 0.0)
    return iou.sum() / (valid.sum() + 1e-7)


@pytest.fixture
def batches(rng):
    return [
        (
            rng.integers(0, 4, size=(3, 5)),
            rng.integers(0, 4, size=(3, 5)),
            rng.integers(0, 3, size=(3, 5)),
        ),
        (rng.integers(-1, 5, size=12), rng.integers(0, 4, size=12), None),
        (rng.integers(0, 4, size=7), rng.integers(0, 4, size=7), rng.integers(1, 4, size=7)),
    ]


@pytest.mark.parametrize("target", [[0], [1, 3], [0, 1, 2, 3]])
@pytest.mark.parametrize("ignore_class", [None, 2])
def test_iou_of_target_classes(support, batches, target, ignore_class):
    m = metrics.IoU(num_classes=4, target_class_ids=target, ignore_class=ignore_class)
    for t, p, w in batches:
        m.update_state(t, p, sample_weight=w)
    cm = np_confusion(batches, 4, ignore_class)
    np.testing.assert_array_equal(support.to_numpy(m.total_cm.value), cm)
    assert support.to_numpy(m.result()) == pytest.approx(np_iou(cm, target), abs=1e-6)
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0


def test_mean_iou_averages_every_class(support, batches):
    m = metrics.MeanIoU(num_classes=4)
    for t, p, w in batches:
        m.update_state(t, p, sample_weight=w)
    assert support.to_numpy(m.result()) == pytest.approx(
        np_iou(np_confusion(batches, 4), range(4)), abs=1e-6
    )


@pytest.mark.parametrize("threshold", [0.5, 0.3])
def test_binary_iou_thresholds_at_or_above(support, rng, threshold):
    t = rng.integers(0, 2, size=20)
    p = rng.uniform(size=20).astype("float32")
    p[:3] = threshold  # scores equal to the threshold are class 1
    w = rng.integers(0, 3, size=20)
    m = metrics.BinaryIoU(target_class_ids=[0, 1], threshold=threshold)
    m.update_state(t, p, sample_weight=w)
    cm = np_confusion([(t, (p >= threshold).astype(int), w)], 2)
    assert support.to_numpy(m.result()) == pytest.approx(np_iou(cm, [0, 1]), abs=1e-6)


def test_one_hot_variants_arg_max_the_inputs(support, rng):
    labels = rng.integers(0, 3, size=15)
    scores = rng.uniform(size=(15, 3)).astype("float32")
    cm = np_confusion([(labels, scores.argmax(-1), None)], 3)
    one_hot = np.eye(3)[labels]
    a = metrics.OneHotIoU(num_classes=3, target_class_ids=[0, 2])
    a.update_state(one_hot, scores)
    b = metrics.OneHotMeanIoU(num_classes=3)
    b.update_state(one_hot, scores)
    c = metrics.OneHotIoU(num_classes=3, target_class_ids=[1], sparse_y_pred=True)
    c.update_state(one_hot, scores.argmax(-1))
    assert support.to_numpy(a.result()) == pytest.approx(np_iou(cm, [0, 2]), abs=1e-6)
    assert support.to_numpy(b.result()) == pytest.approx(np_iou(cm, range(3)), abs=1e-6)
    assert support.to_numpy(c.result()) == pytest.approx(np_iou(cm, [1]), abs=1e-6)


def test_float_dtype_accepts_fractional_weights(support, rng):
    t, p = rng.integers(0, 3, size=10), rng.integers(0, 3, size=10)
    w = rng.uniform(size=10).astype("float32")
    m = metrics.MeanIoU(num_classes=3, dtype="float32")
    m.update_state(t, p, sample_weight=w)
    assert support.to_numpy(m.result()) == pytest.approx(
        np_iou(np_confusion([(t, p, w)], 3), range(3)), abs=1e-6
    )


def test_float_weights_on_an_int_matrix_warn(support):
    m = metrics.MeanIoU(num_classes=2)
    with pytest.warns(UserWarning, match="float sample weights but accumulates in dtype int32"):
        m.update_state([0, 1], [0, 1], sample_weight=np.array([0.5, 1.0], "float32"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.update_state([0, 1], [0, 1], sample_weight=[1, 2])


def test_matches_keras(support, batches, rng):
    labels = rng.integers(0, 3, size=(4, 6))
    scores = rng.uniform(size=(4, 6, 3)).astype("float32")
    binary = [(rng.integers(0, 2, size=10), rng.uniform(size=10).astype("float32"), None)]
    support.assert_matches_keras(
        [
            (lambda: metrics.IoU(4, [1, 3]), batches),
            (lambda: metrics.IoU(4, [0, 2], ignore_class=2), batches),
            (lambda: metrics.MeanIoU(4), batches),
            (lambda: metrics.MeanIoU(4, ignore_class=0, dtype="float32"), batches),
            (lambda: metrics.BinaryIoU(threshold=0.4), binary),
            (lambda: metrics.BinaryIoU(target_class_ids=[1]), binary),
            (lambda: metrics.OneHotIoU(3, [0, 1]), [(np.eye(3)[labels], scores, None)]),
            (lambda: metrics.OneHotMeanIoU(3), [(np.eye(3)[labels], scores, None)]),
        ],
        atol=1e-6,
    )


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match=r"target_class_ids must be class ids in \[0, 3\)"):
        metrics.IoU(num_classes=3, target_class_ids=[3])
    with pytest.raises(ValueError, match="num_classes must be a positive int"):
        metrics.MeanIoU(num_classes=0)


def test_configs_round_trip():
    for m in [
        metrics.IoU(4, [1, 2], ignore_class=0, sparse_y_pred=False, axis=1, name="iou"),
        metrics.BinaryIoU([1], threshold=0.3, name="b"),
        metrics.MeanIoU(5, ignore_class=255, dtype="float32"),
        metrics.OneHotIoU(3, [0], sparse_y_pred=True),
        metrics.OneHotMeanIoU(3),
    ]:
        config = m.get_config()
        assert type(m).from_config(config).get_config() == config
    assert "sparse_y_true" not in metrics.OneHotMeanIoU(3).get_config()
    assert "target_class_ids" not in metrics.MeanIoU(3).get_config()
