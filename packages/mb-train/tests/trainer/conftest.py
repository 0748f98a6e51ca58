"""Trainer tests run on jax (set before any mb import); stand-ins for the losses,
metrics and optimizers that sibling sub-packages provide."""

import os

os.environ.setdefault("MB_BACKEND", "jax")

import pytest

import mb_ops
from mb_ops import ops


class StandInMSE:
    """Mean squared error, mean over the batch (sample weights multiply)."""

    name = "mean_squared_error"
    reduction = "sum_over_batch_size"

    def call(self, y_true, y_pred):
        return ops.mean(ops.square(ops.cast(y_true, y_pred.dtype) - y_pred), axis=-1)

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.call(y_true, y_pred)
        if sample_weight is not None:
            values = values * ops.cast(sample_weight, values.dtype)
        return ops.sum(values) / ops.cast(ops.shape(values)[0], values.dtype)


class StandInSparseCE:
    """Sparse categorical cross-entropy on probabilities."""

    name = "sparse_categorical_crossentropy"
    reduction = "sum_over_batch_size"

    def call(self, y_true, y_pred):
        y_true = ops.cast(ops.reshape(y_true, (-1,)), "int32")
        probs = ops.take_along_axis(y_pred, ops.expand_dims(y_true, -1), axis=-1)[:, 0]
        return -ops.log(ops.clip(probs, 1e-7, 1.0))

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.call(y_true, y_pred)
        if sample_weight is not None:
            values = values * ops.cast(ops.reshape(sample_weight, (-1,)), values.dtype)
        return ops.sum(values) / ops.cast(ops.shape(values)[0], values.dtype)


class StandInSGD:
    """Plain SGD: v <- v - lr * g; counts iterations."""

    def __init__(self, learning_rate=0.1):
        self.iterations = mb_ops.Variable(0, dtype="int32", trainable=False, name="iterations")
        self.learning_rate = mb_ops.Variable(
            learning_rate, dtype="float32", trainable=False, name="learning_rate"
        )
        self.built = False

    @property
    def variables(self):
        return [self.iterations, self.learning_rate]

    def build(self, variables):
        self.built = True

    def apply(self, grads, variables):
        for g, v in zip(grads, variables, strict=True):
            v.assign(v.value - self.learning_rate.value * g)
        self.iterations.assign(self.iterations.value + 1)


class StandInAccuracy:
    """Sparse categorical accuracy."""

    def __init__(self, name="accuracy"):
        self.name = name
        self.total = mb_ops.Variable(0.0, trainable=False, name="total")
        self.count = mb_ops.Variable(0.0, trainable=False, name="count")

    @property
    def variables(self):
        return [self.total, self.count]

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.cast(ops.reshape(y_true, (-1,)), "int32")
        hits = ops.cast(ops.equal(ops.argmax(y_pred, axis=-1), y_true), "float32")
        self.total.assign(self.total.value + ops.sum(hits))
        self.count.assign(self.count.value + ops.cast(ops.shape(hits)[0], "float32"))

    def result(self):
        return ops.divide_no_nan(self.total.value, self.count.value)

    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)


@pytest.fixture
def standins():
    return {
        "mse": StandInMSE,
        "sparse_ce": StandInSparseCE,
        "sgd": StandInSGD,
        "accuracy": StandInAccuracy,
    }
