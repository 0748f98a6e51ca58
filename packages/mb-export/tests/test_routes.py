"""Which backend writes which format, and the errors when no backend can: each names
the pairs that work. The conversion through a .keras file in a subprocess imports
the model's own layer classes there."""

from __future__ import annotations

import importlib
import os
import textwrap

import numpy as np
import pytest

import mb_layers
from mb_export import FORMATS, ExportArchive, _command, _convert, _routes, _runtimes
from mb_layers import layers
from mb_ops import backends, config
from mb_train.models import Model


def _native():
    module = backends.backend_module("export")
    return [f for f in FORMATS if _routes.native_step(module, f)]


def _foreign():
    """A format the active backend writes through another one."""
    return next(f for f in FORMATS if f not in _native())


def _model():
    x = mb_layers.Input((3,), name="x")
    return Model(x, layers.Dense(2, name="head")(x))


def _path(tmp_path, format):
    return str(tmp_path / ("model" + _routes.SUFFIXES.get(format, "")))


def test_an_unknown_format_lists_the_formats(tmp_path):
    with pytest.raises(ValueError, match=r"Unrecognized format='keras'.*'tf_saved_model'"):
        _model().export(str(tmp_path / "m"), format="keras")


def test_a_wrong_suffix_names_the_one_required(tmp_path):
    with pytest.raises(ValueError, match=r"requires the filepath to end with '\.xml'"):
        _model().export(str(tmp_path / "m.ir"), format="openvino")


def test_no_installed_converter_names_the_pairs_that_work(tmp_path, monkeypatch):
    monkeypatch.setattr(_convert, "installed_backends", lambda: {config.backend()})
    format = _foreign()
    with pytest.raises(NotImplementedError) as info:
        _model().export(_path(tmp_path, format), format=format, verbose=False)
    message = str(info.value)
    assert f"The {config.backend()} backend cannot write format={format!r} itself" in message
    assert "no backend that can" in message
    assert "Pairs that work in-process: tensorflow: tf_saved_model, onnx" in message


def test_options_for_another_backend_must_be_json(tmp_path):
    format = _foreign()
    if _convert.pick_backend(format, exclude={config.backend()}) is None:
        pytest.skip(f"no engine that writes {format} is installed besides {config.backend()}")
    with pytest.raises(TypeError, match="export options must be JSON values"):
        _model().export(_path(tmp_path, format), format=format, verbose=False, hook=object())


def test_a_conversion_does_not_convert_again(tmp_path, monkeypatch):
    monkeypatch.setenv("MB_EXPORT_CONVERTING", "1")
    format = _foreign()
    with pytest.raises(NotImplementedError, match="this is already a conversion"):
        _model().export(_path(tmp_path, format), format=format, verbose=False)


def test_mb_export_picks_a_backend_that_writes_the_format():
    for format in [f for f in FORMATS if _convert.pick_backend(f) is not None]:
        chosen = _command.choose_backend(format)
        assert format in _routes.NATIVE[chosen]
    with pytest.raises(ValueError, match=r"--backend jax cannot write torch .*Pairs that work"):
        _command.choose_backend("torch", "jax")


def test_blame_names_the_innermost_layer_and_keeps_the_kind():
    from mb_export import _blame

    class Broken(layers.Layer):
        def call(self, x):
            raise KeyError("no such table")

    inner = Broken(name="broken")
    with pytest.raises(LookupError) as info, _blame.tracing("Exporting 'outer' to onnx"):
        inner(np.ones((2, 3), "float32"))
    message = str(info.value)
    assert message.startswith("Exporting 'outer' to onnx failed in layer 'broken' (Broken;")
    assert "KeyError: 'no such table'" in message
    assert isinstance(info.value.__cause__, KeyError)
    with pytest.raises(ZeroDivisionError), _blame.tracing("anything"):
        _divide(1.0, 0.0)  # no layer's call on the stack: the error passes unchanged


def _divide(a, b):
    return a / b


_RUNTIMES = {
    "tf_saved_model": "tensorflow",
    "onnx": "onnxruntime",
    "openvino": "openvino",
    "litert": "ai_edge_litert",
    "torch": "torch",
}

_CUSTOM = textwrap.dedent(
    """
    import mb_layers

    class Doubler(mb_layers.layers.Layer):
        def call(self, x):
            return x * 2.0
    """
)


@pytest.mark.slow
def test_the_converting_subprocess_imports_the_models_own_layers(tmp_path, monkeypatch):
    """A custom layer from an importable module crosses to the converting backend."""
    format = _foreign()
    converter = _convert.pick_backend(format, exclude={config.backend()})
    if converter is None:
        pytest.skip(f"no backend that writes {format} is installed")
    pytest.importorskip(_RUNTIMES[format])
    (tmp_path / "custom_layers_for_export.py").write_text(_CUSTOM)
    monkeypatch.syspath_prepend(str(tmp_path))
    paths = [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    # imported by name: the module exists only in this test's tmp_path
    custom_layers_for_export = importlib.import_module("custom_layers_for_export")

    x = mb_layers.Input((3,), name="x")
    model = Model(x, custom_layers_for_export.Doubler(name="doubler")(layers.Dense(2)(x)))
    path = _path(tmp_path, format)
    model.export(path, format=format, verbose=False)
    arguments = [np.random.default_rng(0).random((4, 3), dtype="float32")]
    (got,) = _runtimes.RUNNERS[format](path, arguments)
    expected = np.asarray(model.predict(arguments[0], verbose=0))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_an_archive_builds_everywhere_and_refuses_use_where_it_cannot_trace():
    pytest.importorskip("tensorflow")
    archive = ExportArchive()  # Keras's builds on every backend too
    if _routes.native_step(backends.backend_module("export"), "tf_saved_model") is not None:
        return
    model = _model()
    with pytest.raises(NotImplementedError, match="Build the archive on the jax or tensorflow"):
        archive.track(model)
    with pytest.raises(NotImplementedError, match="cannot trace"):
        archive.add_endpoint("serve", model, [mb_layers.InputSpec(shape=(None, 3))])
    with pytest.raises(NotImplementedError, match="cannot trace"):
        archive.write_out("unused")
