"""Every loss function against its NumPy formula, on several inputs and arguments.

Tolerance: float32 computation against a float64 reference, rtol 2e-5 and
atol 2e-6 unless a case states otherwise.
"""

import _losses_formulas as ref
import numpy as np
import pytest
from _losses_helpers import ctc_data, data, embeddings, sparse_data, to_numpy

from mb_layers import get_keras_mask
from mb_train import losses

TOL = {"rtol": 2e-5, "atol": 2e-6}

# (function name, keyword arguments, kind of data)
CASES = [
    ("mean_squared_error", {}, "regression"),
    ("mean_absolute_error", {}, "regression"),
    ("mean_absolute_percentage_error", {}, "regression"),
    ("mean_squared_logarithmic_error", {}, "positive"),
    ("mean_squared_logarithmic_error", {}, "regression"),
    ("cosine_similarity", {}, "regression"),
    ("cosine_similarity", {"axis": 0}, "regression"),
    ("huber", {}, "regression"),
    ("huber", {"delta": 0.3}, "regression"),
    ("log_cosh", {}, "regression"),
    ("kl_divergence", {}, "soft"),
    ("poisson", {}, "positive"),
    ("binary_crossentropy", {}, "binary"),
    ("binary_crossentropy", {"from_logits": True}, "binary_logits"),
    ("binary_crossentropy", {"label_smoothing": 0.2}, "binary"),
    ("binary_crossentropy", {"from_logits": True, "label_smoothing": 0.1}, "binary_logits"),
    ("binary_crossentropy", {"axis": 0}, "binary"),
    ("binary_focal_crossentropy", {}, "binary"),
    ("binary_focal_crossentropy", {"from_logits": True, "gamma": 1.5}, "binary_logits"),
    (
        "binary_focal_crossentropy",
        {"apply_class_balancing": True, "alpha": 0.4, "label_smoothing": 0.1},
        "binary",
    ),
    ("categorical_crossentropy", {}, "categorical"),
    ("categorical_crossentropy", {"from_logits": True}, "categorical_logits"),
    ("categorical_crossentropy", {"label_smoothing": 0.1}, "categorical"),
    (
        "categorical_crossentropy",
        {"from_logits": True, "label_smoothing": 0.3},
        "categorical_logits",
    ),
    ("categorical_crossentropy", {}, "soft"),
    ("categorical_focal_crossentropy", {}, "categorical"),
    ("categorical_focal_crossentropy", {"from_logits": True, "gamma": 0.5}, "categorical_logits"),
    ("categorical_focal_crossentropy", {"alpha": 0.6, "label_smoothing": 0.2}, "categorical"),
    ("hinge", {}, "signed"),
    ("hinge", {}, "binary"),
    ("squared_hinge", {}, "signed"),
    ("squared_hinge", {}, "binary"),
    ("categorical_hinge", {}, "categorical_logits"),
    ("dice", {}, "masks"),
    ("dice", {"axis": -1}, "masks"),
    ("tversky", {}, "masks"),
    ("tversky", {"alpha": 0.7, "beta": 0.3, "axis": -1}, "masks"),
]


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5)])
@pytest.mark.parametrize(("name", "kwargs", "kind"), CASES)
def test_function_matches_numpy_formula(name, kwargs, kind, shape):
    y_true, y_pred = data(kind, shape, seed=len(name))
    got = to_numpy(getattr(losses, name)(y_true, y_pred, **kwargs))
    expected = getattr(ref, name)(y_true.astype(np.float64), y_pred.astype(np.float64), **kwargs)
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got, expected, **TOL, err_msg=f"{name}({kwargs})")


def test_categorical_crossentropy_on_another_class_axis():
    y_true, y_pred = data("categorical_logits", (2, 3, 4), seed=3)
    y_true, y_pred = np.moveaxis(y_true, -1, 1), np.moveaxis(y_pred, -1, 1)  # classes on axis 1
    kwargs = {"from_logits": True, "label_smoothing": 0.2, "axis": 1}
    got = to_numpy(losses.categorical_crossentropy(y_true, y_pred, **kwargs))
    expected = ref.categorical_crossentropy(y_true.astype(float), y_pred.astype(float), **kwargs)
    assert got.shape == (2, 3)
    np.testing.assert_allclose(got, expected, **TOL)


def test_dice_and_tversky_per_image():
    y_true, y_pred = data("masks", (2, 4, 4, 1), seed=5)
    for fn, kwargs in ((losses.dice, {}), (losses.tversky, {"alpha": 0.2, "beta": 0.8})):
        got = to_numpy(fn(y_true, y_pred, axis=(1, 2, 3), **kwargs))
        expected = getattr(ref, fn.__name__)(y_true, y_pred.astype(float), axis=(1, 2, 3), **kwargs)
        assert got.shape == (2,)
        np.testing.assert_allclose(got, expected, **TOL)


def test_regression_functions_squeeze_a_trailing_axis_of_one():
    # (batch,) targets against (batch, 1) predictions: one value per sample, not (batch, batch).
    y_true, y_pred = data("regression", (5, 1), seed=2)
    got = to_numpy(losses.mean_squared_error(y_true[:, 0], y_pred))
    np.testing.assert_allclose(got, (y_true[:, 0] - y_pred[:, 0]) ** 2, **TOL)


@pytest.mark.parametrize("from_logits", [False, True])
@pytest.mark.parametrize("shape", [(6, 4), (2, 3, 4)])
def test_sparse_categorical_crossentropy(from_logits, shape):
    labels, scores = sparse_data(shape, from_logits=from_logits, seed=1)
    got = to_numpy(losses.sparse_categorical_crossentropy(labels, scores, from_logits=from_logits))
    expected, _ = ref.sparse_categorical_crossentropy(labels, scores.astype(float), from_logits)
    np.testing.assert_allclose(got, expected, **TOL)
    # Labels with a trailing axis of 1 give the same values.
    again = losses.sparse_categorical_crossentropy(labels[..., None], scores, from_logits)
    np.testing.assert_allclose(to_numpy(again), expected, **TOL)


def test_sparse_categorical_crossentropy_on_the_first_class_axis():
    labels, scores = sparse_data((3, 5, 4), from_logits=True, seed=2)
    moved = np.moveaxis(scores, -1, 1)  # (batch, classes, time)
    got = to_numpy(losses.sparse_categorical_crossentropy(labels, moved, True, axis=1))
    expected, _ = ref.sparse_categorical_crossentropy(labels, moved.astype(float), True, axis=1)
    np.testing.assert_allclose(got, expected, **TOL)


def test_sparse_categorical_crossentropy_ignore_class_zeroes_and_masks():
    labels, scores = sparse_data((4, 5, 3), from_logits=True, seed=4)
    labels[0, :2] = 2
    labels[3, 4] = 2
    got = losses.sparse_categorical_crossentropy(labels, scores, from_logits=True, ignore_class=2)
    expected, valid = ref.sparse_categorical_crossentropy(labels, scores.astype(float), True, 2)
    np.testing.assert_allclose(to_numpy(got), expected, **TOL)
    assert np.all(to_numpy(got)[labels == 2] == 0.0)
    np.testing.assert_array_equal(to_numpy(get_keras_mask(got)).astype(bool), valid)


@pytest.mark.parametrize("q", [0.2, 0.5, 0.9])
def test_categorical_generalized_cross_entropy(q):
    labels, probs = sparse_data((6, 4), seed=7)
    expected = ref.categorical_generalized_cross_entropy(labels, probs.astype(float), q)
    got = losses.categorical_generalized_cross_entropy(labels, probs, q=q)
    np.testing.assert_allclose(to_numpy(got), expected, **TOL)
    # (batch, 1) labels: one value per sample (Keras 3 returns a (batch, batch) array here).
    got = losses.categorical_generalized_cross_entropy(labels[:, None], probs, q=q)
    np.testing.assert_allclose(to_numpy(got), expected, **TOL)


@pytest.mark.parametrize(
    "kwargs", [{}, {"remove_diagonal": False}, {"gamma": 10.0, "margin": 0.25}]
)
def test_circle(kwargs):
    labels, x = embeddings(8, 4, 3, seed=1)
    got = losses.circle(labels, x, **kwargs)
    expected, mask = ref.circle(labels, x.astype(float), **kwargs)
    # gamma scales the similarities by up to 80: rtol 1e-4 for float32.
    np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(to_numpy(get_keras_mask(got)).astype(bool), mask)


def test_circle_against_reference_embeddings():
    labels, x = embeddings(4, 3, 2, seed=2)
    ref_labels, ref_x = embeddings(6, 3, 2, seed=3)
    got = to_numpy(losses.circle(labels, x, ref_labels=ref_labels, ref_embeddings=ref_x, gamma=5.0))
    d = np.maximum(1 - x.astype(float) @ ref_x.T.astype(float), 0)
    pos = labels[:, None] == ref_labels[None, :]
    wp, wn = np.maximum((0.4 + d) * pos, 0), np.maximum((1.4 - d) * ~pos, 0)
    lp = ref._logsumexp(-5.0 * wp * (0.4 - d), pos & ~np.eye(4, 6, dtype=bool))
    ln = ref._logsumexp(5.0 * wn * (0.6 - d), ~pos)
    np.testing.assert_allclose(got, np.logaddexp(0.0, lp + ln), rtol=1e-4, atol=1e-5)


def test_ctc_matches_a_numpy_forward_pass():
    labels, logits = ctc_data(batch=4, time=7, classes=5, max_label=3, seed=3)
    got = to_numpy(losses.ctc(labels, logits))
    np.testing.assert_allclose(got, ref.ctc(labels, logits.astype(float)), rtol=1e-4, atol=1e-4)


def test_ctc_rejects_wrong_ranks():
    labels, logits = ctc_data()
    with pytest.raises(ValueError, match=r"\(batch_size, max_label_length\)"):
        losses.ctc(labels[:, :, None], logits)
    with pytest.raises(ValueError, match=r"\(batch_size, time, num_classes\)"):
        losses.ctc(labels, logits[:, 0])


def test_categorical_crossentropy_warns_on_a_single_class():
    with pytest.warns(SyntaxWarning, match="binary_crossentropy"):
        losses.categorical_crossentropy(np.ones((3, 1), "float32"), np.ones((3, 1), "float32"))


def test_categorical_losses_reject_a_non_integer_axis():
    y_true, y_pred = data("categorical", (2, 3))
    for fn in (losses.categorical_crossentropy, losses.categorical_focal_crossentropy):
        with pytest.raises(ValueError, match="axis=True"):
            fn(y_true, y_pred, axis=True)
