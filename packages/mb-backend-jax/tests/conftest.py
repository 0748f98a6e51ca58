"""Tests of the JAX backend run with it as the active mb backend."""

import os
import sys

os.environ["MB_BACKEND"] = "jax"
# Let the tests import the shared Keras reference module next to them.
sys.path.insert(0, os.path.dirname(__file__))
# Keras 3 is the reference for result dtypes and some numbers; it must use JAX too.
os.environ["KERAS_BACKEND"] = "jax"

from pathlib import Path

import jax
import pytest


def _has_accelerator():
    return any(d.platform != "cpu" for d in jax.devices())


_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    if _has_accelerator():
        return
    skip = pytest.mark.skip(reason="needs a GPU/TPU; JAX sees only CPU devices")
    for item in items:
        # this package's own tests only: pytest hands this hook every collected item
        if "gpu" in item.keywords and _HERE in Path(item.path).parents:
            item.add_marker(skip)
