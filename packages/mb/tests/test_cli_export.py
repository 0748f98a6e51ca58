"""`mb export MODEL.keras --format F --out PATH [--check]`, end to end: the command picks a
backend that writes F, converts in a subprocess, prints where it wrote and a snippet that
runs the artifact (the snippet is run here), and `--check` compares the artifact's
runtime with `predict`. The command itself runs on the numpy backend, which writes no
format: the conversion always happens elsewhere."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import mb
from mb import _cli
from mb_export import pick_backend

pytestmark = pytest.mark.slow  # a conversion subprocess per format


def _mb(*args, home):
    env = {k: v for k, v in os.environ.items() if k not in ("MB_BACKEND", "KERAS_BACKEND")}
    env.update(MB_BACKEND="numpy", MB_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "mb._cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@pytest.fixture(scope="module")
def saved_model_file(tmp_path_factory):
    x = mb.Input((4,), name="pixels")
    h = mb.layers.Dense(5, activation="relu", name="hidden")(x)
    model = mb.Model(x, mb.layers.Dense(3, activation="softmax", name="probs")(h), name="tiny")
    path = tmp_path_factory.mktemp("cli") / "tiny.keras"
    model.save(str(path))
    return path, model


def _snippet(stdout):
    lines = stdout.splitlines()
    start = lines.index("Run it with:") + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("Checked:"))
    return "\n".join(lines[start:end])


# An ONNX file may be named anything (as in Keras): "tiny.model" is read as ONNX too.
@pytest.mark.parametrize(
    "format, out", [("onnx", "tiny.onnx"), ("onnx", "tiny.model"), ("tf_saved_model", "saved")]
)
def test_mb_export_writes_checks_and_says_how_to_run(saved_model_file, tmp_path, format, out):
    runtime = {"onnx": "onnxruntime", "tf_saved_model": "tensorflow"}[format]
    if pick_backend(format) is None or importlib.util.find_spec(runtime) is None:
        pytest.skip(f"no installed backend writes {format}, or {runtime} is not installed")
    path, model = saved_model_file
    target = tmp_path / out
    result = _mb(
        "export", str(path), "--format", format, "--out", str(target), "--check", home=tmp_path
    )
    assert result.returncode == 0, result.stderr[-3000:]
    first = result.stdout.splitlines()
    assert any(line.startswith(f"Wrote {format} to {target} (converted on the ") for line in first)
    assert "Checked: the " + format + " runtime matches predict" in result.stdout

    # The printed snippet runs as it is, with the input named as in the export.
    pixels = np.random.default_rng(0).random((3, 4), dtype="float32")
    if format == "tf_saved_model":
        tf = pytest.importorskip("tensorflow")

        pixels = tf.constant(pixels)
        scope = {"inputs": pixels}
    else:
        scope = {"pixels": pixels}
    exec(_snippet(result.stdout), scope)
    outputs = scope["outputs"]
    got = np.asarray(outputs[0] if isinstance(outputs, list) else outputs)
    expected = np.asarray(model.predict(np.asarray(pixels), verbose=0))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_mb_export_refuses_a_missing_file_and_a_backend_that_cannot(tmp_path, capsys):
    out = str(tmp_path / "m.onnx")
    assert (
        _cli.main(["export", str(tmp_path / "absent.keras"), "--format", "onnx", "--out", out]) == 2
    )
    assert "No such file" in capsys.readouterr().err
    (tmp_path / "m.keras").write_bytes(b"")
    code = _cli.main(
        ["export", str(tmp_path / "m.keras"), "--format", "torch", "--out", out, "--backend", "jax"]
    )
    assert code == 2
    error = capsys.readouterr().err
    assert "--backend jax cannot write torch" in error and "Pairs that work" in error
