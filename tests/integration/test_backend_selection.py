"""The backend asked for by MB_BACKEND is the one mb uses, with its devices and tensors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import mb
from mb_ops import backends

EXPECTED = os.environ.get("MB_BACKEND")


@pytest.mark.skipif(EXPECTED is None, reason="the matrix sets MB_BACKEND for each leg")
def test_active_backend_is_the_one_requested():
    assert mb.config.backend() == EXPECTED
    assert backends.backend_descriptor().name == EXPECTED


def test_backend_reports_a_cpu_device():
    devices = backends.backend_module("distribution").list_devices()
    assert "cpu:0" in devices


def test_numpy_round_trip_through_the_backend():
    core = backends.backend_module("core")
    data = np.arange(6, dtype="float32").reshape(2, 3)
    tensor = core.convert_to_tensor(data)
    np.testing.assert_array_equal(core.convert_to_numpy(tensor), data)


def test_settings_of_the_leg_reach_the_process():
    with open(os.path.join(os.environ["MB_HOME"], "mb.json")) as f:
        settings = json.load(f)
    assert mb.config.image_data_format() == settings.get("image_data_format", "channels_last")


def test_mb_info_command_agrees():
    result = subprocess.run(
        [sys.executable, "-m", "mb._cli", "info", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["active_backend"] == mb.config.backend()
    assert report["backends"][mb.config.backend()] is True


# What a process on each backend should find imported after using mb: its engine only.
_ENGINES = ("jax", "torch", "tensorflow", "openvino", "keras", "tf_keras", "flax")

_FIRST_USE = """
import sys
import numpy as np
import mb
x = mb.ops.add(mb.ops.ones((2, 3)), 1.0)
model = mb.Sequential([mb.Input((3,)), mb.layers.Dense(2, activation="relu")])
model.predict(np.ones((4, 3), "float32"), verbose=0)
print(" ".join(sorted(name for name in sys.argv[1:] if name in sys.modules)))
"""


def test_a_process_imports_only_the_engine_of_its_backend():
    """`import mb` and a first model load the active backend's engine and no other one
    (TensorFlow, for instance, imports jax and Keras itself when they are installed)."""
    engine = backends.backend_descriptor().engine
    result = subprocess.run(
        [sys.executable, "-c", _FIRST_USE, *_ENGINES],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MB_BACKEND": mb.config.backend()},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = set(result.stdout.split())
    assert loaded == ({engine} if engine else set()), (
        f"on the {mb.config.backend()} backend, using mb imported {sorted(loaded)}"
    )
