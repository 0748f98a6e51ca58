"""Keras 3 on its numpy backend, as a test-only reference (skipped where not installed)."""

import importlib
import os
import sys

import pytest


def keras_ops():
    """``keras.ops`` running on Keras's own numpy backend, or skip the test."""
    if "keras" not in sys.modules:
        os.environ["KERAS_BACKEND"] = "numpy"
    keras = pytest.importorskip("keras")
    if keras.config.backend() != "numpy":
        pytest.skip("keras was already imported with another backend in this process")
    return keras.ops


def keras_backend_module(name):
    """``keras.src.backend.numpy.<name>``, for functions ``keras.ops`` does not expose."""
    keras_ops()
    # Keras's numpy nn and math modules import jax for convolution and FFTs.
    pytest.importorskip("jax")
    return importlib.import_module(f"keras.src.backend.numpy.{name}")
