"""Export from an inference-only backend (numpy, openvino): the backend traces
nothing, so the model goes through a .keras file to a backend that can, in a
subprocess. The OpenVINO IR it writes, run by OpenVINO, the model's ``predict`` on
this backend, and jax's ``predict`` of the same file (a subprocess) agree."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import mb
from mb import layers
from mb_export import _convert, _runtimes
from mb_ops import config

pytestmark = pytest.mark.inference_only

RTOL, ATOL = 1e-5, 1e-5  # three engines' float32 convolutions and reductions

_JAX_PREDICT = """
import sys
import numpy as np
import mb
model = mb.saving.load_model(sys.argv[1])
np.save(sys.argv[3], np.asarray(model.predict(np.load(sys.argv[2]), verbose=0)))
"""


def _model():
    x = layers.Input((6, 6, 2), name="image")
    h = layers.Conv2D(3, 3, data_format="channels_last", name="conv")(x)
    h = layers.BatchNormalization(name="norm")(h)
    h = layers.Activation("relu")(h)
    h = layers.GlobalAveragePooling2D(data_format="channels_last")(h)
    model = mb.Model(x, layers.Dense(2, name="head")(h))
    rng = np.random.default_rng(11)
    for weight in model.weights:
        value = rng.normal(size=weight.shape).astype("float32")
        if "moving_variance" in weight.path:
            value = np.abs(value) + 0.5
        weight.assign(value)
    return model, rng.random((4, 6, 6, 2), dtype="float32")


def test_openvino_ir_from_an_inference_only_backend_matches_jax(tmp_path):
    installed = _convert.installed_backends()
    if not {"jax", "torch"} <= installed:
        pytest.skip("the comparison converts on torch and predicts on jax")
    model, x = _model()
    keras_path, inputs, jax_out = tmp_path / "m.keras", tmp_path / "x.npy", tmp_path / "jax.npy"
    model.save(str(keras_path))
    np.save(inputs, x)
    xml = str(tmp_path / "m.xml")
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        model.export(xml, format="openvino")
    converter = _convert.pick_backend("openvino", exclude={config.backend()})
    assert f"converted on the {converter} backend" in log.getvalue()

    env = {**os.environ, "MB_BACKEND": "jax"}
    command = [sys.executable, "-c", _JAX_PREDICT, str(keras_path), str(inputs), str(jax_out)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    expected = np.load(jax_out)

    (ir,) = _runtimes.run_openvino(xml, [x])
    np.testing.assert_allclose(ir, expected, rtol=RTOL, atol=ATOL)
    here = np.asarray(model.predict(x, verbose=0))
    np.testing.assert_allclose(here, expected, rtol=RTOL, atol=ATOL)
