"""Trainer tests run on jax (set before any mb import), with the real losses, metrics
and optimizers of mb_train (what a user compiles with)."""

import os

os.environ.setdefault("MB_BACKEND", "jax")

import pytest

from mb_train import losses, metrics, optimizers


def _accuracy(name="accuracy"):
    return metrics.SparseCategoricalAccuracy(name=name)


@pytest.fixture
def builtins():
    """The built-ins the trainer tests compile models with, by short name."""
    return {
        "mse": losses.MeanSquaredError,
        "sparse_ce": losses.SparseCategoricalCrossentropy,
        "sgd": optimizers.SGD,
        "accuracy": _accuracy,
    }
