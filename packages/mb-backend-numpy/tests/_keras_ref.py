"""Keras 3 on its numpy backend, as a test-only reference (skipped where not installed)."""

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
