"""Every loss class and function against Keras 3 itself, on the same inputs.

Keras runs once for the whole module, in a subprocess with KERAS_BACKEND=jax
(float32). Loss objects reach Keras as the configs mb's `serialize` writes, so
each comparison also checks that Keras reads mb's configs.

Tolerance: rtol 1e-5 / atol 1e-6; rtol 1e-4 / atol 1e-5 for the losses that
sum many exponentials (focal, Circle, CTC), where float32 rounding differs with
the order of operations.
"""

import numpy as np
import pytest
from _losses_helpers import ctc_data, data, embeddings, sparse_data, to_numpy
from _losses_keras_ref import function_case, object_case, run_keras

from mb_train import losses

STRICT = {"rtol": 1e-5, "atol": 1e-6}
LOOSE = {"rtol": 1e-4, "atol": 1e-5}
LOOSE_NAMES = ("focal", "circle", "ctc", "CTC", "Circle", "Focal")


def _inputs(kind, shape, seed):
    if kind == "sparse":
        return sparse_data(shape, seed=seed)
    if kind == "sparse_logits":
        return sparse_data(shape, from_logits=True, seed=seed)
    if kind == "embeddings":
        return embeddings(shape[0], shape[1], 3, seed=seed)
    if kind == "ctc":
        return ctc_data(batch=shape[0], time=shape[1], classes=shape[2], seed=seed)
    return data(kind, shape, seed=seed)


# (class, constructor arguments, kind of data, shape)
OBJECTS = [
    (losses.MeanSquaredError, {}, "regression", (5, 3)),
    (losses.MeanAbsoluteError, {}, "regression", (2, 3, 4)),
    (losses.MeanAbsolutePercentageError, {}, "regression", (5, 3)),
    (losses.MeanSquaredLogarithmicError, {}, "positive", (5, 3)),
    (losses.CosineSimilarity, {}, "regression", (5, 3)),
    (losses.CosineSimilarity, {"axis": 0}, "regression", (5, 3)),
    (losses.Huber, {"delta": 0.5}, "regression", (5, 3)),
    (losses.LogCosh, {}, "regression", (2, 3, 4)),
    (losses.KLDivergence, {}, "soft", (5, 3)),
    (losses.Poisson, {}, "positive", (5, 3)),
    (losses.BinaryCrossentropy, {}, "binary", (5, 3)),
    (
        losses.BinaryCrossentropy,
        {"from_logits": True, "label_smoothing": 0.2},
        "binary_logits",
        (5, 3),
    ),
    (losses.BinaryFocalCrossentropy, {}, "binary", (5, 3)),
    (
        losses.BinaryFocalCrossentropy,
        {"apply_class_balancing": True, "alpha": 0.3, "gamma": 1.5, "from_logits": True},
        "binary_logits",
        (2, 3, 4),
    ),
    (losses.CategoricalCrossentropy, {}, "categorical", (5, 4)),
    (
        losses.CategoricalCrossentropy,
        {"from_logits": True, "label_smoothing": 0.1},
        "categorical_logits",
        (2, 3, 4),
    ),
    (losses.CategoricalFocalCrossentropy, {}, "categorical", (5, 4)),
    (
        losses.CategoricalFocalCrossentropy,
        {"from_logits": True, "alpha": 0.4, "gamma": 3.0, "label_smoothing": 0.2},
        "categorical_logits",
        (5, 4),
    ),
    (losses.SparseCategoricalCrossentropy, {}, "sparse", (6, 4)),
    (losses.SparseCategoricalCrossentropy, {"from_logits": True}, "sparse_logits", (2, 5, 4)),
    (
        losses.SparseCategoricalCrossentropy,
        {"from_logits": True, "ignore_class": 1},
        "sparse_logits",
        (3, 5, 4),
    ),
    (losses.CategoricalGeneralizedCrossEntropy, {"q": 0.3}, "sparse", (6, 4)),
    (losses.Hinge, {}, "signed", (5, 3)),
    (losses.Hinge, {}, "binary", (5, 3)),
    (losses.SquaredHinge, {}, "binary", (5, 3)),
    (losses.CategoricalHinge, {}, "categorical_logits", (5, 4)),
    (losses.Dice, {}, "masks", (3, 4, 4)),
    (losses.Dice, {"axis": -1}, "masks", (3, 4)),
    (losses.Tversky, {"alpha": 0.7, "beta": 0.3}, "masks", (3, 4, 4)),
    (losses.Tversky, {"axis": -1}, "masks", (3, 4)),
    (losses.Circle, {"gamma": 20.0}, "embeddings", (8, 4)),
    (losses.Circle, {"remove_diagonal": False, "margin": 0.3}, "embeddings", (8, 4)),
    (losses.CTC, {}, "ctc", (3, 6, 5)),
]

# Each object runs with these (reduction, sample-weight kind) pairs.
# "per_sample" weights have shape (batch, 1, ...) against the values (Keras 3 does
# not broadcast (batch,) weights over (batch, time) values); "per_value" weights
# have the values' shape.
SETTINGS = [
    ("sum_over_batch_size", None),
    ("sum_over_batch_size", "per_value"),
    ("sum", "per_sample"),
    ("mean_with_sample_weight", "per_sample"),
    ("none", "per_value"),
]

# (function name, keyword arguments, kind of data, shape)
FUNCTIONS = [
    ("mean_squared_error", {}, "regression", (4, 3)),
    ("mean_absolute_error", {}, "regression", (4, 3)),
    ("mean_absolute_percentage_error", {}, "regression", (4, 3)),
    ("mean_squared_logarithmic_error", {}, "positive", (4, 3)),
    ("cosine_similarity", {"axis": 1}, "regression", (2, 3, 4)),
    ("huber", {"delta": 2.0}, "regression", (4, 3)),
    ("log_cosh", {}, "regression", (4, 3)),
    ("kl_divergence", {}, "soft", (4, 3)),
    ("poisson", {}, "positive", (4, 3)),
    ("binary_crossentropy", {"from_logits": True}, "binary_logits", (4, 3)),
    ("binary_crossentropy", {"label_smoothing": 0.3, "axis": 0}, "binary", (4, 3)),
    ("binary_focal_crossentropy", {"gamma": 0.5, "label_smoothing": 0.1}, "binary", (4, 3)),
    ("categorical_crossentropy", {"label_smoothing": 0.2}, "categorical", (4, 3)),
    ("categorical_crossentropy", {"from_logits": True, "axis": 1}, "categorical_logits", (2, 3, 4)),
    ("categorical_focal_crossentropy", {"from_logits": True}, "categorical_logits", (4, 3)),
    ("sparse_categorical_crossentropy", {"from_logits": True}, "sparse_logits", (2, 3, 4)),
    (
        "sparse_categorical_crossentropy",
        {"from_logits": True, "ignore_class": 0},
        "sparse_logits",
        (4, 3),
    ),
    ("categorical_generalized_cross_entropy", {"q": 0.8}, "sparse", (4, 3)),
    ("hinge", {}, "signed", (4, 3)),
    ("squared_hinge", {}, "signed", (4, 3)),
    ("categorical_hinge", {}, "categorical", (4, 3)),
    ("dice", {"axis": 1}, "masks", (3, 4)),
    ("tversky", {"alpha": 0.2, "beta": 0.8}, "masks", (3, 4)),
    ("circle", {"gamma": 30.0}, "embeddings", (6, 3)),
    ("ctc", {}, "ctc", (2, 5, 4)),
]


def _weights(kind, values_shape, batch, seed):
    if kind is None:
        return None
    if not values_shape:  # a scalar loss (Dice over everything): one weight per sample
        shape = (batch,)
    elif kind == "per_sample":
        shape = values_shape[:1] + (1,) * (len(values_shape) - 1)
    else:
        shape = values_shape
    return np.random.default_rng(seed).uniform(0.0, 2.0, size=shape).astype("float32")


def _object_cases():
    cases = []
    for i, (cls, kwargs, kind, shape) in enumerate(OBJECTS):
        y_true, y_pred = _inputs(kind, shape, seed=i)
        values_shape = tuple(cls(reduction="none", **kwargs)(y_true, y_pred).shape)
        for j, (reduction, sw_kind) in enumerate(SETTINGS):
            loss = cls(reduction=reduction, **kwargs)
            sw = _weights(sw_kind, values_shape, shape[0], seed=10 * i + j)
            cases.append((loss, y_true, y_pred, sw))
    return cases


def _function_cases():
    cases = []
    for i, (name, kwargs, kind, shape) in enumerate(FUNCTIONS):
        y_true, y_pred = _inputs(kind, shape, seed=100 + i)
        cases.append((name, kwargs, y_true, y_pred))
    return cases


OBJECT_CASES = _object_cases()
FUNCTION_CASES = _function_cases()


@pytest.fixture(scope="module")
def keras_results():
    cases = [
        object_case(losses.serialize(loss), y_true, y_pred, sw)
        for loss, y_true, y_pred, sw in OBJECT_CASES
    ]
    cases += [
        function_case(name, y_true, y_pred, **kwargs)
        for name, kwargs, y_true, y_pred in FUNCTION_CASES
    ]
    results = run_keras(cases)
    return results[: len(OBJECT_CASES)], results[len(OBJECT_CASES) :]


def _tolerance(name):
    return LOOSE if any(part in name for part in LOOSE_NAMES) else STRICT


@pytest.mark.parametrize(
    "index",
    range(len(OBJECT_CASES)),
    ids=[f"{type(c[0]).__name__}-{c[0].reduction}" for c in OBJECT_CASES],
)
def test_loss_object_matches_keras(keras_results, index):
    loss, y_true, y_pred, sw = OBJECT_CASES[index]
    got = to_numpy(loss(y_true, y_pred, sample_weight=sw))
    expected = keras_results[0][index]
    assert got.shape == expected.shape
    np.testing.assert_allclose(
        got, expected, **_tolerance(type(loss).__name__), err_msg=repr(losses.serialize(loss))
    )


@pytest.mark.parametrize("index", range(len(FUNCTION_CASES)), ids=[c[0] for c in FUNCTION_CASES])
def test_loss_function_matches_keras(keras_results, index):
    name, kwargs, y_true, y_pred = FUNCTION_CASES[index]
    got = to_numpy(getattr(losses, name)(y_true, y_pred, **kwargs))
    expected = keras_results[1][index]
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, **_tolerance(name), err_msg=f"{name}({kwargs})")


def test_every_keras_loss_is_compared():
    compared = {cls for cls, *_ in OBJECTS} | {getattr(losses, n) for n, *_ in FUNCTIONS}
    public = {getattr(losses, n) for n in losses.__all__}
    helpers = {losses.Loss, losses.LossFunctionWrapper, losses.get, losses.serialize}
    helpers |= {losses.deserialize}
    assert public - helpers - compared == set()
