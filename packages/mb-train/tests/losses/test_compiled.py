"""Losses inside compiled steps and in `compile`/`fit`: the backend's ``jit`` gives
the eager numbers, gradients stay finite, and ``compile(loss="...")`` trains.

Tolerance: rtol 1e-5 / atol 1e-6 between compiled and eager float32 runs; the
training numbers against NumPy: rtol 1e-4 / atol 1e-5.
"""

import numpy as np
import pytest
from _losses_helpers import ctc_data, data, embeddings, softmax, sparse_data, to_numpy

import mb_layers
import mb_ops
from mb_ops import backends, ops
from mb_train import losses
from mb_train.models import Model


def _training():
    try:
        module = backends.backend_module("training")
    except ModuleNotFoundError:
        module = None
    if module is None or "value_and_grad" in getattr(module, "UNSUPPORTED", {}):
        pytest.skip(f"the {mb_ops.config.backend()} backend cannot train")
    return module


CASES = [
    (losses.MeanSquaredError(), "regression", (4, 3)),
    (losses.MeanAbsoluteError(), "regression", (4, 3)),
    (losses.MeanAbsolutePercentageError(), "regression", (4, 3)),
    (losses.MeanSquaredLogarithmicError(), "positive", (4, 3)),
    (losses.CosineSimilarity(), "regression", (4, 3)),
    (losses.Huber(delta=0.5), "regression", (4, 3)),
    (losses.LogCosh(), "regression", (4, 3)),
    (losses.KLDivergence(), "soft", (4, 3)),
    (losses.Poisson(), "positive", (4, 3)),
    (losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1), "binary_logits", (4, 3)),
    (losses.BinaryFocalCrossentropy(apply_class_balancing=True), "binary", (4, 3)),
    (losses.CategoricalCrossentropy(label_smoothing=0.2), "categorical", (4, 3)),
    (losses.CategoricalFocalCrossentropy(from_logits=True), "categorical_logits", (4, 3)),
    (losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0), "sparse", (2, 5, 4)),
    (losses.CategoricalGeneralizedCrossEntropy(q=0.5), "sparse", (6, 4)),
    (losses.Hinge(), "binary", (4, 3)),
    (losses.SquaredHinge(), "signed", (4, 3)),
    (losses.CategoricalHinge(), "categorical", (4, 3)),
    (losses.Dice(), "masks", (2, 4, 4)),
    (losses.Tversky(axis=-1), "masks", (3, 4)),
    (losses.Circle(gamma=10.0), "embeddings", (8, 3)),
    (losses.CTC(), "ctc", (3, 6, 5)),
]


def _inputs(kind, shape):
    if kind == "sparse":
        return sparse_data(shape, seed=1)
    if kind == "embeddings":
        return embeddings(shape[0], shape[1], 3, seed=1)
    if kind == "ctc":
        return ctc_data(batch=shape[0], time=shape[1], classes=shape[2], seed=1)
    return data(kind, shape, seed=1)


@pytest.mark.parametrize(("loss", "kind", "shape"), CASES, ids=lambda c: type(c).__name__)
def test_a_compiled_loss_gives_the_eager_value(loss, kind, shape):
    training = _training()
    y_true, y_pred = _inputs(kind, shape)
    weights = np.linspace(0.5, 1.5, shape[0]).astype("float32")
    if isinstance(loss, losses.Dice):
        weights = None  # one number for the whole batch
    eager = to_numpy(loss(y_true, y_pred, sample_weight=weights))

    def step(y_true, y_pred, weights):
        return loss(y_true, y_pred, sample_weight=weights)

    args = [ops.convert_to_tensor(a) for a in (y_true, y_pred)]
    args.append(None if weights is None else ops.convert_to_tensor(weights))
    compiled = to_numpy(training.jit(step)(*args))
    np.testing.assert_allclose(compiled, eager, rtol=1e-5, atol=1e-6)


def test_the_ignored_class_has_finite_gradients():
    training = _training()
    labels, probs = sparse_data((4, 3), seed=2)
    labels[1] = 1
    loss = losses.SparseCategoricalCrossentropy(ignore_class=1)
    value, grad = training.value_and_grad(lambda p: loss(labels, p))(ops.convert_to_tensor(probs))
    grad = to_numpy(grad)
    assert np.all(np.isfinite(grad))
    assert np.all(grad[labels == 1] == 0.0)
    assert np.isfinite(to_numpy(value))


class PlainSGD:
    """v <- v - lr * g (the optimizers sub-package is another helper's)."""

    def __init__(self, learning_rate):
        self.learning_rate = learning_rate
        self.iterations = mb_ops.Variable(0, dtype="int32", trainable=False, name="iterations")

    @property
    def variables(self):
        return [self.iterations]

    def build(self, variables):
        pass

    def apply(self, grads, variables):
        for g, v in zip(grads, variables, strict=True):
            v.assign(v.value - self.learning_rate * g)
        self.iterations.assign(self.iterations.value + 1)


def _softmax_regression(kernel, bias):
    x = mb_layers.Input((kernel.shape[0],))
    dense = mb_layers.layers.Dense(kernel.shape[1], activation="softmax")
    model = Model(x, dense(x))
    model.set_weights([kernel, bias])
    return model


def _numpy_steps(x, labels, kernel, bias, lr, batch_size):
    for i in range(0, len(x), batch_size):
        xb, yb = x[i : i + batch_size], np.eye(kernel.shape[1])[labels[i : i + batch_size]]
        error = (softmax(xb @ kernel + bias) - yb) / len(xb)
        kernel, bias = kernel - lr * xb.T @ error, bias - lr * error.sum(axis=0)
    return kernel, bias


def test_compile_with_a_loss_name_trains_like_numpy():
    _training()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 3)).astype("float32")
    labels = rng.integers(0, 4, size=32).astype("int32")
    kernel = rng.normal(scale=0.3, size=(3, 4)).astype("float32")
    bias = np.zeros(4, "float32")
    model = _softmax_regression(kernel, bias)
    model.compile(optimizer=PlainSGD(0.5), loss="sparse_categorical_crossentropy")

    probs = softmax(x @ kernel.astype(float) + bias)
    expected = np.mean(-np.log(probs[np.arange(32), labels]))
    np.testing.assert_allclose(model.evaluate(x, labels, batch_size=32, verbose=0), expected, 1e-5)

    model.fit(x, labels, batch_size=8, epochs=1, shuffle=False, verbose=0)
    want_kernel, want_bias = _numpy_steps(x, labels, kernel.astype(float), bias, 0.5, 8)
    got_kernel, got_bias = model.get_weights()
    np.testing.assert_allclose(got_kernel, want_kernel, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_bias, want_bias, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("loss", ["mse", "MeanSquaredError", losses.MeanSquaredError()])
def test_evaluate_with_sample_weights_reduces_like_keras(loss):
    _training()
    rng = np.random.default_rng(1)
    x = rng.normal(size=(16, 3)).astype("float32")
    y = rng.normal(size=(16, 2)).astype("float32")
    w = rng.uniform(0.0, 2.0, size=16).astype("float32")
    inputs = mb_layers.Input((3,))
    model = Model(inputs, mb_layers.layers.Dense(2, kernel_initializer="ones")(inputs))
    model.compile(optimizer=PlainSGD(0.1), loss=loss)
    pred = x @ np.ones((3, 2))
    # sum_over_batch_size: the weighted sum over the batch's samples, divided by their number.
    expected = np.sum(np.mean((pred - y) ** 2, axis=-1) * w) / 16
    got = model.evaluate(x, y, sample_weight=w, batch_size=16, verbose=0)
    np.testing.assert_allclose(got, expected, rtol=1e-5)
