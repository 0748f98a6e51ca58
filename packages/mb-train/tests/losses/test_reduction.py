"""The `Loss` base class: reductions, sample-weight broadcasting, masks, dtypes, names."""

import _losses_formulas as ref
import numpy as np
import pytest
from _losses_helpers import data, sparse_data, to_numpy

from mb_graph import naming
from mb_layers import dtype_policies, set_keras_mask
from mb_ops import ops
from mb_train import losses


class AbsoluteError(losses.Loss):
    """Per-entry absolute error: no reduction of its own, so shapes stay visible."""

    def call(self, y_true, y_pred):
        return ops.abs(y_true - y_pred)


VALUES = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")
ZEROS = np.zeros_like(VALUES)


def _run(reduction, sample_weight=None):
    return to_numpy(AbsoluteError(reduction=reduction)(ZEROS, VALUES, sample_weight=sample_weight))


def test_sum_over_batch_size_divides_by_the_number_of_values_after_weighting():
    w = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]], "float32")
    # (1*1 + 6*2) / 6 values: zero weights still count in the divisor.
    np.testing.assert_allclose(_run("sum_over_batch_size", w), 13.0 / 6.0, rtol=1e-6)
    np.testing.assert_allclose(_run("mean", w), 13.0 / 6.0, rtol=1e-6)


def test_sum_and_mean_with_sample_weight():
    w = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]], "float32")
    np.testing.assert_allclose(_run("sum", w), 13.0, rtol=1e-6)
    np.testing.assert_allclose(_run("mean_with_sample_weight", w), 13.0 / 3.0, rtol=1e-6)
    # Without weights it is the plain mean.
    np.testing.assert_allclose(_run("mean_with_sample_weight"), 3.5, rtol=1e-6)


@pytest.mark.parametrize("reduction", ["none", None])
def test_no_reduction_returns_the_weighted_values(reduction):
    w = np.array([2.0, 0.5], "float32")
    got = _run(reduction, w)
    np.testing.assert_allclose(got, VALUES * w[:, None], rtol=1e-6)


def test_all_zero_weights_give_zero_not_nan():
    w = np.zeros(2, "float32")
    for reduction in ("sum_over_batch_size", "mean_with_sample_weight", "sum"):
        assert _run(reduction, w) == 0.0


@pytest.mark.parametrize(
    ("weight", "broadcast"),
    [
        (2.0, 2.0),  # a scalar
        (np.array([1.0, 3.0], "float32"), np.array([[1.0], [3.0]])),  # one per sample
        (np.array([[1.0], [3.0]], "float32"), np.array([[1.0], [3.0]])),  # (batch, 1)
        (np.array([1.0, 0.0, 2.0], "float32"), np.array([[1.0, 0.0, 2.0]])),  # one per column
        (np.array([[[1.0], [2.0], [0.0]]] * 2, "float32"), np.array([[1.0, 2.0, 0.0]] * 2)),
    ],
)
def test_sample_weights_broadcast_like_keras(weight, broadcast):
    got = _run("none", weight)
    np.testing.assert_allclose(got, VALUES * broadcast, rtol=1e-6)


def test_per_sample_weights_reach_sequence_losses():
    # (batch,) weights on (batch, time) values: Keras 3 raises a broadcast error here;
    # mb weights every step of a sample by that sample's weight.
    y_true, y_pred = data("regression", (4, 3, 2), seed=1)
    w = np.array([0.0, 1.0, 2.0, 0.5], "float32")
    got = to_numpy(losses.MeanSquaredError()(y_true, y_pred, sample_weight=w))
    values = ref.mean_squared_error(y_true.astype(float), y_pred.astype(float))
    np.testing.assert_allclose(got, np.mean(values * w[:, None]), rtol=2e-5)


def test_incompatible_sample_weights_are_a_clear_error():
    with pytest.raises(ValueError, match=r"sample weights of shape \(5,\) cannot be broadcast"):
        _run("sum", np.ones(5, "float32"))


@pytest.mark.parametrize("reduction", ["avg", "Sum", "mean_over_batch", 1, True])
def test_bad_reductions_are_rejected_with_the_choices(reduction):
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`") as info:
        losses.MeanSquaredError(reduction=reduction)
    message = str(info.value)
    assert repr(reduction) in message
    for allowed in ("'sum_over_batch_size'", "'sum'", "'mean_with_sample_weight'", "None"):
        assert allowed in message


def _masked_prediction(shape=(3, 4, 2), seed=0):
    y_true, y_pred = data("regression", shape, seed=seed)
    mask = np.ones(shape[:2], bool)
    mask[0, 2:] = False
    mask[2, 1] = False
    tensor = ops.convert_to_tensor(y_pred)
    set_keras_mask(tensor, ops.convert_to_tensor(mask))
    values = ref.mean_squared_error(y_true.astype(float), y_pred.astype(float))
    return y_true, tensor, mask, values


@pytest.mark.parametrize("reduction", ["sum_over_batch_size", "mean", "sum", "none"])
def test_a_mask_on_the_predictions_leaves_masked_steps_out(reduction):
    y_true, y_pred, mask, values = _masked_prediction()
    got = to_numpy(losses.MeanSquaredError(reduction=reduction)(y_true, y_pred))
    np.testing.assert_allclose(got, ref.reduce(values, mask=mask, reduction=reduction), rtol=2e-5)


def test_a_mask_and_sample_weights_combine():
    y_true, y_pred, mask, values = _masked_prediction(seed=2)
    w = np.array([2.0, 0.5, 1.0], "float32")
    for reduction in ("sum_over_batch_size", "sum", "mean_with_sample_weight"):
        got = losses.MeanSquaredError(reduction=reduction)(y_true, y_pred, sample_weight=w)
        expected = ref.reduce(values, w[:, None], mask=mask, reduction=reduction)
        np.testing.assert_allclose(to_numpy(got), expected, rtol=2e-5, err_msg=reduction)


def test_a_fully_masked_batch_gives_zero():
    y_true, y_pred = data("regression", (2, 3, 1))
    tensor = ops.convert_to_tensor(y_pred)
    set_keras_mask(tensor, ops.zeros((2, 3), dtype="bool"))
    assert to_numpy(losses.MeanSquaredError()(y_true, tensor)) == 0.0


def test_the_prediction_mask_and_the_ignored_class_combine():
    labels, logits = sparse_data((2, 4, 3), from_logits=True, seed=3)
    labels[0, 0] = 2
    mask = np.array([[True, True, True, False], [True, False, True, True]])
    tensor = ops.convert_to_tensor(logits)
    set_keras_mask(tensor, ops.convert_to_tensor(mask))
    loss = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=2)
    values, valid = ref.sparse_categorical_crossentropy(labels, logits.astype(float), True, 2)
    expected = ref.reduce(values, mask=valid & mask)
    np.testing.assert_allclose(to_numpy(loss(labels, tensor)), expected, rtol=2e-5)


def test_inputs_are_computed_in_the_loss_dtype():
    y_true, y_pred = data("regression", (4, 3))
    assert losses.MeanSquaredError().dtype == "float32"
    out = losses.MeanSquaredError()(y_true.astype("float64"), y_pred.astype("float64"))
    assert ops.dtype(out) == "float32"
    half = losses.MeanSquaredError(dtype="float16")
    assert half.dtype == "float16"
    out = half(y_true, y_pred)
    assert ops.dtype(out) == "float16"
    np.testing.assert_allclose(
        to_numpy(out), np.mean(ref.mean_squared_error(y_true, y_pred)), rtol=2e-3
    )
    mixed = losses.MeanSquaredError(dtype=dtype_policies.DTypePolicy("mixed_float16"))
    assert mixed.dtype == "float16"


def test_plain_lists_are_accepted():
    loss = losses.SparseCategoricalCrossentropy()
    got = to_numpy(loss([1, 0], [[0.5, 0.5], [0.25, 0.75]]))
    np.testing.assert_allclose(got, (np.log(2.0) + np.log(4.0)) / 2, rtol=1e-6)


def test_default_names_are_keras_names_and_custom_ones_are_unique():
    expected = {
        losses.MeanSquaredError: "mean_squared_error",
        losses.Huber: "huber_loss",
        losses.KLDivergence: "kl_divergence",
        losses.CTC: "ctc",
        losses.CategoricalGeneralizedCrossEntropy: "categorical_generalized_cross_entropy",
    }
    for cls, name in expected.items():
        assert cls().name == name
    naming.reset_uids()
    assert [AbsoluteError().name, AbsoluteError().name] == ["absolute_error", "absolute_error_1"]
    assert AbsoluteError(name="mine").name == "mine"


def test_a_loss_without_call_says_what_to_implement():
    with pytest.raises(NotImplementedError, match=r"must implement call\(y_true, y_pred\)"):
        losses.Loss()(np.zeros(2), np.zeros(2))


def test_wrapper_passes_its_arguments_and_squeezes_trailing_axes():
    def scaled_error(y_true, y_pred, scale):
        return scale * ops.mean(ops.abs(y_true - y_pred), axis=-1)

    loss = losses.LossFunctionWrapper(scaled_error, scale=3.0, reduction="sum")
    y_true, y_pred = data("regression", (4, 1), seed=4)
    got = to_numpy(loss(y_true[:, 0], y_pred))
    np.testing.assert_allclose(got, 3.0 * np.sum(np.abs(y_true - y_pred)), rtol=1e-5)
    assert loss.name == "loss_function_wrapper" or loss.name.startswith("loss_function_wrapper_")


def test_wrapper_rejects_a_non_callable():
    with pytest.raises(TypeError, match="needs a callable fn"):
        losses.LossFunctionWrapper("mse")


def test_categorical_generalized_cross_entropy_checks_q():
    for q in (0.0, 1.0, -0.5, "0.5"):
        with pytest.raises(ValueError, match=r"q in the open interval \(0, 1\)"):
            losses.CategoricalGeneralizedCrossEntropy(q=q)
