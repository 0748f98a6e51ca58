"""Metric tests run on jax unless MB_BACKEND says otherwise (set before any mb import).

The `support` fixture is `_support.py` (NumPy conversion, Keras 3 reference runs).
"""

import importlib.util
import os

os.environ.setdefault("MB_BACKEND", "jax")

import numpy as np
import pytest

_path = os.path.join(os.path.dirname(__file__), "_support.py")
_spec = importlib.util.spec_from_file_location("mb_train_metrics_test_support", _path)
_support = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_support)


@pytest.fixture
def support():
    return _support


@pytest.fixture
def rng():
    return np.random.default_rng(0)
