"""Unit tests of mb_data run on the NumPy backend unless a backend is chosen already."""

import os
import threading

import numpy as np
import pytest

os.environ.setdefault("MB_BACKEND", "numpy")

from mb_ops import backends


def as_numpy(batch):
    """Every leaf of a batch of the active backend's tensors as a NumPy array."""
    to_numpy = backends.backend_module("core").convert_to_numpy
    if isinstance(batch, dict):
        return {k: as_numpy(v) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return type(batch)(as_numpy(v) for v in batch)
    if batch is None:
        return None
    return np.asarray(to_numpy(batch))


def run_with_deadline(fn, seconds):
    """``fn()``'s result, or AssertionError if it has not finished in ``seconds`` (a hang)."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds}s: the data pipeline hangs"
    if "error" in box:
        raise box["error"]
    return box["value"]


@pytest.fixture(name="as_numpy")
def _as_numpy_fixture():
    return as_numpy


@pytest.fixture(name="run_with_deadline")
def _run_with_deadline_fixture():
    return run_with_deadline
