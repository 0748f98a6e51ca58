"""Test helpers for layers: `run_layer_test` (Keras's ``run_layer_test``)."""

from mb_layers.testing._layer_test import run_layer_test as run_layer_test

__all__ = ["run_layer_test"]
