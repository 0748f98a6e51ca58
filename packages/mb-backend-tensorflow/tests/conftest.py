"""Every test of this package runs with the tensorflow backend selected."""

import os
import sys
from pathlib import Path

import pytest

os.environ["MB_BACKEND"] = "tensorflow"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

# Shared helpers (``_helpers.py``) sit next to the tests; pytest runs with
# --import-mode=importlib, which does not put this folder on sys.path.
sys.path.insert(0, str(Path(__file__).parent))


def _has_gpu():
    import tensorflow as tf  # the engine under test; imported once per session

    return bool(tf.config.list_physical_devices("GPU"))


_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    if not any(item.get_closest_marker("gpu") for item in items):
        return
    if _has_gpu():
        return
    skip = pytest.mark.skip(reason="needs a GPU visible to TensorFlow")
    for item in items:
        # this package's own tests only: pytest hands this hook every collected item
        if item.get_closest_marker("gpu") and _HERE in Path(item.path).parents:
            item.add_marker(skip)
