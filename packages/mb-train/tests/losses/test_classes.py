"""Every loss class against NumPy: its formula, weighted and reduced as Keras 3 does,
for each reduction, with and without sample weights.

Tolerance: float32 against float64, rtol 2e-5 and atol 2e-6 (looser where a case
says so).
"""

import _losses_formulas as ref
import numpy as np
import pytest
from _losses_helpers import ctc_data, data, embeddings, sparse_data, to_numpy

from mb_train import losses

TOL = {"rtol": 2e-5, "atol": 2e-6}
REDUCTIONS = ["sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None]

# (class, constructor arguments, reference function, kind of data)
CASES = [
    (losses.MeanSquaredError, {}, ref.mean_squared_error, "regression"),
    (losses.MeanAbsoluteError, {}, ref.mean_absolute_error, "regression"),
    (losses.MeanAbsolutePercentageError, {}, ref.mean_absolute_percentage_error, "regression"),
    (losses.MeanSquaredLogarithmicError, {}, ref.mean_squared_logarithmic_error, "positive"),
    (losses.CosineSimilarity, {}, ref.cosine_similarity, "regression"),
    (losses.Huber, {}, ref.huber, "regression"),
    (losses.Huber, {"delta": 0.4}, ref.huber, "regression"),
    (losses.LogCosh, {}, ref.log_cosh, "regression"),
    (losses.KLDivergence, {}, ref.kl_divergence, "soft"),
    (losses.Poisson, {}, ref.poisson, "positive"),
    (losses.BinaryCrossentropy, {}, ref.binary_crossentropy, "binary"),
    (losses.BinaryCrossentropy, {"from_logits": True}, ref.binary_crossentropy, "binary_logits"),
    (losses.BinaryCrossentropy, {"label_smoothing": 0.2}, ref.binary_crossentropy, "binary"),
    (losses.BinaryFocalCrossentropy, {}, ref.binary_focal_crossentropy, "binary"),
    (
        losses.BinaryFocalCrossentropy,
        {"apply_class_balancing": True, "alpha": 0.3, "gamma": 1.0, "from_logits": True},
        ref.binary_focal_crossentropy,
        "binary_logits",
    ),
    (
        losses.BinaryFocalCrossentropy,
        {"label_smoothing": 0.1},
        ref.binary_focal_crossentropy,
        "binary",
    ),
    (losses.CategoricalCrossentropy, {}, ref.categorical_crossentropy, "categorical"),
    (
        losses.CategoricalCrossentropy,
        {"from_logits": True, "label_smoothing": 0.1},
        ref.categorical_crossentropy,
        "categorical_logits",
    ),
    (
        losses.CategoricalCrossentropy,
        {"label_smoothing": 0.25},
        ref.categorical_crossentropy,
        "categorical",
    ),
    (losses.CategoricalFocalCrossentropy, {}, ref.categorical_focal_crossentropy, "categorical"),
    (
        losses.CategoricalFocalCrossentropy,
        {"from_logits": True, "alpha": 0.5, "gamma": 3.0, "label_smoothing": 0.1},
        ref.categorical_focal_crossentropy,
        "categorical_logits",
    ),
    (losses.Hinge, {}, ref.hinge, "signed"),
    (losses.Hinge, {}, ref.hinge, "binary"),
    (losses.SquaredHinge, {}, ref.squared_hinge, "signed"),
    (losses.CategoricalHinge, {}, ref.categorical_hinge, "categorical_logits"),
    (losses.Dice, {"axis": -1}, ref.dice, "masks"),
    (losses.Tversky, {"alpha": 0.8, "beta": 0.2, "axis": -1}, ref.tversky, "masks"),
]


def _weights(kind, values_shape, seed=0):
    """(mb's sample_weight, the same weights broadcast for the NumPy reference)."""
    rng = np.random.default_rng(seed)
    batch = values_shape[0]
    if kind is None:
        return None, None
    if kind == "per_sample":
        w = rng.uniform(0.0, 2.0, size=batch).astype("float32")
        return w, w.reshape((batch,) + (1,) * (len(values_shape) - 1))
    if kind == "per_value":
        w = rng.uniform(0.0, 2.0, size=values_shape).astype("float32")
        return w, w
    raise ValueError(kind)


def _check(loss, y_true, y_pred, values, sw_kind, tol=TOL):
    sw, ref_sw = _weights(sw_kind, values.shape)
    for reduction in REDUCTIONS:
        loss.reduction = reduction
        got = to_numpy(loss(y_true, y_pred, sample_weight=sw))
        expected = ref.reduce(values, ref_sw, reduction=reduction)
        np.testing.assert_allclose(
            got, expected, **tol, err_msg=f"{loss.name} reduction={reduction} sw={sw_kind}"
        )


@pytest.mark.parametrize("sw_kind", [None, "per_sample", "per_value"])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4)])
@pytest.mark.parametrize(("cls", "kwargs", "formula", "kind"), CASES)
def test_class_matches_numpy(cls, kwargs, formula, kind, shape, sw_kind):
    y_true, y_pred = data(kind, shape, seed=shape[-1])
    values = formula(y_true.astype(float), y_pred.astype(float), **kwargs)
    _check(cls(**kwargs), y_true, y_pred, values, sw_kind)


@pytest.mark.parametrize("sw_kind", [None, "per_sample", "per_value"])
@pytest.mark.parametrize("from_logits", [False, True])
def test_sparse_categorical_crossentropy_class(from_logits, sw_kind):
    labels, scores = sparse_data((6, 5), from_logits=from_logits, seed=3)
    values, _ = ref.sparse_categorical_crossentropy(labels, scores.astype(float), from_logits)
    _check(
        losses.SparseCategoricalCrossentropy(from_logits=from_logits),
        labels,
        scores,
        values,
        sw_kind,
    )
    # (batch, 1) labels, as Keras users often pass them.
    _check(
        losses.SparseCategoricalCrossentropy(from_logits=from_logits),
        labels[:, None],
        scores,
        values,
        sw_kind,
    )


@pytest.mark.parametrize("sw_kind", [None, "per_sample"])
def test_sparse_categorical_crossentropy_ignore_class_averages_over_the_rest(sw_kind):
    labels, logits = sparse_data((3, 4, 5), from_logits=True, seed=5)
    labels[0, 1:] = 4
    labels[2, 0] = 4
    values, valid = ref.sparse_categorical_crossentropy(labels, logits.astype(float), True, 4)
    loss = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=4)
    sw, ref_sw = _weights(sw_kind, values.shape)
    for reduction in REDUCTIONS:
        loss.reduction = reduction
        got = to_numpy(loss(labels, logits, sample_weight=sw))
        expected = ref.reduce(values, ref_sw, mask=valid, reduction=reduction)
        np.testing.assert_allclose(got, expected, **TOL, err_msg=f"reduction={reduction}")


def test_sparse_categorical_crossentropy_ignore_class_mean_is_over_kept_entries():
    labels = np.array([0, 1, 1, 0], "int32")
    probs = np.array([[0.5, 0.5]] * 4, "float32")
    loss = losses.SparseCategoricalCrossentropy(ignore_class=0)
    np.testing.assert_allclose(to_numpy(loss(labels, probs)), np.log(2.0), rtol=1e-6)


@pytest.mark.parametrize("sw_kind", [None, "per_sample"])
@pytest.mark.parametrize("q", [0.3, 0.7])
def test_categorical_generalized_cross_entropy_class(q, sw_kind):
    labels, probs = sparse_data((6, 3), seed=6)
    values = ref.categorical_generalized_cross_entropy(labels, probs.astype(float), q)
    _check(losses.CategoricalGeneralizedCrossEntropy(q=q), labels, probs, values, sw_kind)


@pytest.mark.parametrize("sw_kind", [None, "per_sample"])
def test_circle_class_averages_over_positive_losses(sw_kind):
    labels, x = embeddings(8, 4, 3, seed=4)
    values, mask = ref.circle(labels, x.astype(float), gamma=20.0)
    loss = losses.Circle(gamma=20.0)
    sw, ref_sw = _weights(sw_kind, values.shape)
    for reduction in REDUCTIONS:
        loss.reduction = reduction
        got = to_numpy(loss(labels, x, sample_weight=sw))
        expected = ref.reduce(values, ref_sw, mask=mask, reduction=reduction)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("sw_kind", [None, "per_sample"])
def test_ctc_class(sw_kind):
    labels, logits = ctc_data(batch=4, time=6, classes=4, max_label=2, seed=8)
    values = ref.ctc(labels, logits.astype(float))
    # A CTC log-likelihood sums over many alignments: rtol 1e-4 for float32.
    _check(losses.CTC(), labels, logits, values, sw_kind, tol={"rtol": 1e-4, "atol": 1e-4})


@pytest.mark.parametrize("cls", [losses.Dice, losses.Tversky])
def test_dice_and_tversky_over_the_whole_batch_give_one_number(cls):
    y_true, y_pred = data("masks", (3, 4, 4), seed=9)
    whole = getattr(ref, cls.__name__.lower())(y_true, y_pred.astype(float))
    np.testing.assert_allclose(to_numpy(cls()(y_true, y_pred)), whole, **TOL)
    # A scalar loss times per-sample weights, then averaged (as Keras 3 does).
    w = np.array([0.5, 1.0, 2.0], "float32")
    np.testing.assert_allclose(
        to_numpy(cls()(y_true, y_pred, sample_weight=w)), np.mean(whole * w), **TOL
    )


@pytest.mark.parametrize("cls", [losses.BinaryCrossentropy, losses.MeanSquaredError])
def test_targets_of_rank_one_against_predictions_with_a_trailing_one(cls):
    y_true, y_pred = data("binary", (6, 1), seed=1)
    loss = cls(reduction="none")
    flat = to_numpy(loss(y_true[:, 0], y_pred))
    same = to_numpy(loss(y_true, y_pred))
    np.testing.assert_allclose(flat, same, **TOL)
    assert flat.shape == (6,)
