"""model.export on every trainable backend: each artifact runs in its own runtime
(tf.saved_model.load, onnxruntime, OpenVINO, the LiteRT interpreter, torch.export.load)
and matches ``predict`` (float32: rtol 1e-5, atol 1e-6).

The pairs are chosen in conftest.py (`CASES`): every format and every model kind on
each backend. A format the backend cannot write itself is converted on another
backend, through a temporary .keras file in a subprocess.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb
from mb import layers, ops
from mb_export import _convert, _routes, _runtimes, inspect_artifact
from mb_ops import config

pytestmark = pytest.mark.trains  # the inference-only backends: test_inference_only.py

RTOL, ATOL = 1e-5, 1e-6


def _close(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL)


def test_export_runs_in_its_runtime_and_matches_predict(
    export_case, zoo, exported, predictions, native_formats
):
    format, name = export_case
    _, arguments = zoo(name)
    artifact = exported(name, format)
    _close(_runtimes.RUNNERS[format](artifact.path, arguments), predictions(name))
    if format not in native_formats:
        converter = _convert.pick_backend(format, exclude={config.backend()})
        assert f"converted on the {converter} backend" in artifact.log


def _path(tmp_path, format):
    return str(tmp_path / ("model" + _routes.SUFFIXES.get(format, "")))


def test_recurrent_sequences_export_to_litert_or_ask_for_a_fixed_signature(
    tmp_path, zoo, predictions, native_formats
):
    if "litert" not in native_formats:
        pytest.skip(f"the {config.backend()} backend writes litert through another backend")
    model, arguments = zoo("sequences")
    path = _path(tmp_path, "litert")
    try:
        model.export(path, format="litert", verbose=False)
    except ValueError as error:  # TensorList loops with a dynamic batch (tensorflow)
        assert "Pass a fixed input_signature" in str(error)
        signature = [mb.InputSpec(shape=arguments[0].shape, dtype="float32")]
        model.export(path, format="litert", verbose=False, input_signature=signature)
    _close(_runtimes.run_litert(path, arguments), predictions("sequences"))


def test_a_fixed_input_signature_fixes_the_exported_shape(
    tmp_path, zoo, predictions, native_formats
):
    format = next(f for f in native_formats if f != "torch")  # one mb inspect reads
    model, arguments = zoo("mlp")
    path = _path(tmp_path, format)
    signature = [mb.InputSpec(shape=(2, 4), dtype="float32")]
    model.export(path, format=format, verbose=False, input_signature=signature)
    (inputs,) = [s["inputs"] for s in inspect_artifact(path)["signatures"].values()][:1]
    assert [t["shape"] for t in inputs] == [[2, 4]]
    got = _runtimes.RUNNERS[format](path, [arguments[0][:2]])
    _close(got, [p[:2] for p in predictions("mlp")])


class HostMath(layers.Layer):
    """Computes in NumPy: fine eagerly, impossible to trace."""

    def call(self, x):
        return ops.convert_to_tensor(np.tanh(ops.convert_to_numpy(x)))

    def compute_output_shape(self, shape):
        return shape


def test_a_layer_that_cannot_be_traced_is_named_with_the_reason(tmp_path, native_formats):
    x = layers.Input((3,), name="x")
    h = HostMath(name="host_math")(layers.Dense(4)(x))
    model = mb.Model(x, layers.Dense(2)(h), name="outer")
    format = native_formats[0]
    with pytest.raises(Exception) as info:  # the engine's kind: TypeError, RuntimeError, ...
        model.export(_path(tmp_path, format), format=format, verbose=False)
    message = str(info.value)
    assert f"Exporting 'outer' to {format} on the {config.backend()} backend failed" in message
    assert "in layer 'host_math' (HostMath; called as 'outer' > 'host_math')" in message
    assert "no conversion to NumPy" in message
    engine_error = info.value.__cause__
    assert engine_error is not None
    assert f"{type(engine_error).__name__}: " in message
    kind = next(c for c in type(engine_error).__mro__ if c.__module__ == "builtins")
    assert isinstance(info.value, kind)  # `except TypeError` around an export still works


def test_an_unbuilt_model_asks_for_an_input_signature(tmp_path):
    model = mb.Sequential([layers.Dense(2)])
    with pytest.raises(ValueError, match=r"has not been built.*input_signature"):
        model.export(str(tmp_path / "saved"), format="tf_saved_model")


def test_a_layer_the_converting_subprocess_cannot_import_is_refused(tmp_path, native_formats):
    class Doubler(layers.Layer):  # defined in a function: no process but this one imports it
        def call(self, x):
            return x * 2.0

    x = layers.Input((3,))
    model = mb.Model(x, Doubler(name="doubler")(x))
    format = next(f for f in _routes.FORMATS if f not in native_formats)
    with pytest.raises(NotImplementedError) as info:
        model.export(_path(tmp_path, format), format=format, verbose=False)
    message = str(info.value)
    assert f"The {config.backend()} backend cannot write format={format!r} itself" in message
    assert "cannot import the class of layer 'doubler' (" in message
    assert "Pairs that work in-process: " in message
