"""Test helpers for layers: `run_layer_test` and comparisons against Keras 3."""

from mb_layers.testing._keras_reference import compare_with_keras as compare_with_keras
from mb_layers.testing._keras_reference import keras_outputs as keras_outputs
from mb_layers.testing._layer_test import run_layer_test as run_layer_test

__all__ = ["compare_with_keras", "keras_outputs", "run_layer_test"]
