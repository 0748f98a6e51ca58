"""The mb command line: `mb info` reports packages, engines, the backend and its devices."""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import mb
from mb import _cli, _info, _quickstart

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
    "mb-applications",
)
_EXTRA_BACKENDS = ("mb-backend-torch", "mb-backend-tensorflow", "mb-backend-openvino")


# What `pip install mb-framework` always brings; the other backends are extras.
_UMBRELLA_NEEDS = tuple(p for p in PACKAGES if p not in _EXTRA_BACKENDS)


def _installed(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


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
    for name in PACKAGES:  # the backends beyond jax and numpy are extras: maybe absent
        assert report["packages"][name] == _installed(name), name
    for name in _UMBRELLA_NEEDS:
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
    gpus = "GPUs: none (no NVIDIA driver on this machine)"
    assert (gpus in result.stdout) != _info.nvidia_driver()


def test_info_asks_each_engine_for_its_gpus_in_a_process_of_its_own(monkeypatch):
    monkeypatch.setattr(_info, "nvidia_driver", lambda: True)
    installed = {name: True for name in ("numpy", "jax", "torch", "tensorflow")}
    installed = {n: ok for n, ok in installed.items() if importlib.util.find_spec(n)}
    gpus, note = _info.engine_gpus(installed)
    assert note == ""
    # The trainable engines each answered (numpy has no GPU to ask about); on a CPU
    # machine each lists none.
    assert set(gpus) == set(installed) - {"numpy"}
    if not os.path.exists("/proc/driver/nvidia/version"):  # really no driver: no GPU anywhere
        assert all(g == [] for g in gpus.values()), gpus
    text = _info.render(_info.Info({}, {}, {}, "numpy", "test", ["cpu:0"], None, gpus, note))
    assert "GPUs each engine sees:" in text


def test_info_reports_an_unknown_backend_and_fails(tmp_path):
    result = _mb("info", MB_BACKEND="caffe", MB_HOME=str(tmp_path))
    assert result.returncode == 1
    assert "Unknown backend 'caffe'" in result.stdout
    assert "Known backends:" in result.stdout


def test_keras_backend_variable_carries_over(tmp_path):
    result = _mb("info", "--json", KERAS_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert json.loads(result.stdout)["backend_origin"] == "the environment variable KERAS_BACKEND"


def test_bare_mb_prints_the_help_screen(capsys):
    assert _cli.main([]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: mb")
    for command in ("info", "quickstart", "inspect"):
        assert command in shown
    assert "--version" in shown


def test_python_dash_m_mb_is_the_command_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mb", "info", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "MB_BACKEND": "numpy", "MB_HOME": str(tmp_path)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["active_backend"] == "numpy"


def test_version_lists_every_mb_package_and_the_engines():
    result = _mb("--version")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"mb {mb.__version__}"
    listed = dict(line.split() for line in lines[1:] if line.startswith("  "))
    for name in ("mb-framework", *PACKAGES):
        assert listed.get(name) == _installed(name), name
    for name in _UMBRELLA_NEEDS:
        assert listed[name] == "0.1.0", name
    assert listed["numpy"] == np.__version__
    assert "engines:" in lines


def _all_parsers(parser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _all_parsers(sub)


def test_every_option_and_command_has_help_text():
    parsers = list(_all_parsers(_cli.build_parser()))
    assert {p.prog for p in parsers} >= {"mb", "mb info", "mb quickstart", "mb inspect"}
    for parser in parsers:
        for action in parser._actions:
            where = f"{parser.prog} {'/'.join(action.option_strings) or action.dest}"
            assert action.help, f"{where} has no help text"
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"{parser.prog} {choice.dest} has no help text"


def test_quickstart_refuses_a_missing_folder_unless_asked(tmp_path):
    out = tmp_path / "runs" / "today" / "digits.keras"
    refused = _mb("quickstart", "--epochs", "1", "--out", str(out), MB_HOME=str(tmp_path))
    assert refused.returncode == 2
    assert "does not exist" in refused.stderr and "--parents" in refused.stderr
    assert not (tmp_path / "runs").exists()
    made = _mb(
        "quickstart",
        "--epochs",
        "1",
        "--quiet",
        "--parents",
        "--out",
        str(out),
        MB_HOME=str(tmp_path),
    )
    assert made.returncode == 0, made.stderr
    assert zipfile.is_zipfile(out)


def test_shipped_digits_are_scikit_learns_digits():
    datasets = pytest.importorskip("sklearn.datasets", reason="scikit-learn is a dev-only check")
    data, target = _quickstart.load_digits()
    reference = datasets.load_digits()
    assert data.shape == (1797, 64) and data.dtype == np.uint8
    np.testing.assert_array_equal(data, reference.data)
    np.testing.assert_array_equal(target, reference.target)


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


def test_inspect_warns_about_data_outside_the_file_and_refused_objects(tmp_path):
    import io

    import h5py

    import mb as keras

    model = keras.Sequential(
        [keras.Input((3,)), keras.layers.Dense(2, name="head"), keras.layers.Lambda(lambda x: x)]
    )
    model.save(tmp_path / "ok.keras")
    fifo = str(tmp_path / "fifo")  # following the entry would block on it
    os.mkfifo(fifo)
    with zipfile.ZipFile(tmp_path / "ok.keras") as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    weights = io.BytesIO(members["model.weights.h5"])
    with h5py.File(weights, "r+") as f:
        del f["layers/dense/vars/0"]
        f["layers/dense/vars/0"] = h5py.ExternalLink("/etc/passwd", "/data")
        del f["layers/dense/vars/1"]
        f.create_dataset("layers/dense/vars/1", (2,), "float32", external=[(fifo, 0, 8)])
    members["model.weights.h5"] = weights.getvalue()
    with zipfile.ZipFile(tmp_path / "bad.keras", "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    result = _mb("inspect", str(tmp_path / "bad.keras"), MB_BACKEND="numpy", MB_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "WARNING: 2 HDF5 entries point outside the file" in out
    assert "'layers/dense/vars/0' is an external link to '/data' in file '/etc/passwd'" in out
    assert f"'layers/dense/vars/1' stores its values in '{fifo}'" in out
    assert "WARNING: 1 config entry outside the allow-list" in out and "lambda" in out
