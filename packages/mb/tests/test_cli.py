"""The mb command line: `mb info` reports packages, engines, the backend and its devices."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import mb
from mb import _cli

PACKAGES = (
    "mb-graph",
    "mb-ops",
    "mb-backend-numpy",
    "mb-backend-jax",
    "mb-backend-torch",
    "mb-backend-tensorflow",
    "mb-backend-openvino",
    "mb-layers",
    "mb-data",
    "mb-train",
    "mb-saving",
    "mb-export",
)


def _mb(*args, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("MB_BACKEND", "KERAS_BACKEND")}
    full.update(env)
    return subprocess.run(
        [sys.executable, "-m", "mb._cli", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=300,
    )


def test_info_lists_every_package_with_its_version(tmp_path):
    result = _mb("info", "--json", MB_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for name in PACKAGES:
        assert report["packages"][name] == "0.1.0", name
    assert report["active_backend"] == "numpy"
    assert report["backend_origin"] == "the environment variable MB_BACKEND"
    assert report["devices"] == ["cpu:0"]
    assert "numpy" in report["engines"]


def test_info_text_names_the_active_backend(tmp_path):
    result = _mb("info", MB_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "active backend: numpy (chosen by the environment variable MB_BACKEND)" in result.stdout
    assert "devices: cpu:0" in result.stdout


def test_info_reports_an_unknown_backend_and_fails(tmp_path):
    result = _mb("info", MB_BACKEND="caffe", MB_HOME=str(tmp_path))
    assert result.returncode == 1
    assert "Unknown backend 'caffe'" in result.stdout
    assert "Known backends:" in result.stdout


def test_keras_backend_variable_carries_over(tmp_path):
    result = _mb("info", "--json", KERAS_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert json.loads(result.stdout)["backend_origin"] == "the environment variable KERAS_BACKEND"


def test_cli_without_a_command_prints_usage():
    with pytest.raises(SystemExit) as exit_info:
        _cli.main([])
    assert exit_info.value.code == 2


def test_umbrella_exposes_config_and_version():
    assert mb.version() == mb.__version__ == "0.1.0"
    assert mb.config.floatx() == "float32"


def test_quickstart_trains_evaluates_and_saves_on_the_default_backend(tmp_path):
    out = tmp_path / "digits.keras"
    result = _mb("quickstart", "--epochs", "8", "--quiet", "--out", str(out), MB_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    fields = dict(part.split("=", 1) for part in result.stdout.split())
    assert fields["backend"] == "jax"
    # An MLP on the digits reaches well above chance (0.1) in a few epochs.
    assert float(fields["test_accuracy"]) > 0.85
    assert fields["train_time"].endswith("s")
    import zipfile

    assert {"config.json", "metadata.json", "model.weights.h5"} <= set(
        zipfile.ZipFile(out).namelist()
    )


def test_inspect_shows_a_saved_model_without_running_it(tmp_path):
    import mb as keras

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="head")], name="tiny")
    model.compile(optimizer="adam", loss="mse")
    path = tmp_path / "tiny.keras"
    model.save(path)
    result = _mb("inspect", str(path), MB_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "tiny" in result.stdout and "head (Dense)" in result.stdout
    assert "tiny/head/kernel (3, 2) float32" in result.stdout
    as_json = _mb("inspect", "--json", str(path), MB_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert json.loads(as_json.stdout)  # machine-readable too
    missing = _mb("inspect", str(tmp_path / "absent.keras"), MB_HOME=str(tmp_path))
    assert missing.returncode == 2 and "No such file" in missing.stderr
