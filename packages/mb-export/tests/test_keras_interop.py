"""mb against Keras 3 itself: a SavedModel Keras exports loads as mb's TFSMLayer with
Keras's numbers; mb's ExportArchive writes what Keras's writes for the same model
(endpoints, signatures, variables, collections, outputs); and Keras's .keras file
converts with `mb export` (ONNX, checked in onnxruntime).

Keras (a test-only dependency) runs once, in a subprocess, on its tensorflow backend.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_export import ExportArchive, TFSMLayer, _command, _routes, _runtimes, pick_backend
from mb_ops import backends, config, ops, testing
from mb_train.models import Model

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None or importlib.util.find_spec("tensorflow") is None,
    reason="Keras 3 (a test-only dependency) and TensorFlow write the reference files",
)

RTOL, ATOL = 1e-5, 1e-6

# One model, two endpoints ("serve", and "hidden": the hidden layer's activations), one
# variable collection; the same archive is built by mb in the tests below.
_KERAS = """
import sys
import numpy as np
import keras

out = sys.argv[1]
a = keras.Input((3,), name="a")
b = keras.Input((2,), name="b")
h = keras.layers.Concatenate()([a, b])
h = keras.layers.Dense(4, activation="relu", name="hidden")(h)
model = keras.Model({"a": a, "b": b}, [keras.layers.Dense(2, name="left")(h),
                                        keras.layers.Dense(1, name="right")(h)])
hidden = keras.Model({"a": a, "b": b}, model.get_layer("hidden").output)
rng = np.random.default_rng(0)
x = {"a": rng.random((5, 3), dtype="float32"), "b": rng.random((5, 2), dtype="float32")}
np.savez(f"{out}/inputs.npz", **x)
np.savez(f"{out}/expected.npz", *model.predict(x, verbose=0))
model.save(f"{out}/model.keras")
model.export(f"{out}/exported", verbose=False)

spec = {"a": keras.InputSpec(shape=(None, 3), dtype="float32"),
        "b": keras.InputSpec(shape=(None, 2), dtype="float32")}
archive = keras.export.ExportArchive()
archive.track(model)
archive.add_endpoint("serve", model.call, input_signature=[spec])
archive.add_endpoint("hidden", hidden.call, input_signature=[spec])
archive.add_variable_collection("hidden_weights", model.get_layer("hidden").weights)
archive.write_out(f"{out}/archive", verbose=False)
"""


@pytest.fixture(scope="module")
def keras_files(tmp_path_factory):
    out = tmp_path_factory.mktemp("keras")
    testing.run_keras(_KERAS, str(out), backend="tensorflow")
    with np.load(out / "inputs.npz") as data:
        inputs = {k: data[k] for k in data.files}
    with np.load(out / "expected.npz") as data:
        expected = [data[f"arr_{i}"] for i in range(len(data.files))]
    return out, inputs, expected


def _close(got, expected):
    got = [np.asarray(g) for g in got]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL)


def test_tfsm_layer_runs_a_savedmodel_keras_exported(keras_files):
    out, inputs, expected = keras_files
    layer = TFSMLayer(str(out / "exported"))
    _close([ops.convert_to_numpy(o) for o in layer(inputs)], expected)
    with pytest.raises(ValueError, match="cannot be trained"):
        layer(inputs, training=True)


def _mb_archive(keras_files, path):
    out, _, _ = keras_files
    model = mb_saving.load_model(str(out / "model.keras"))
    hidden = Model(model.input, model.get_layer("hidden").output)
    spec = {
        "a": mb_layers.InputSpec(shape=(None, 3), dtype="float32"),
        "b": mb_layers.InputSpec(shape=(None, 2), dtype="float32"),
    }
    archive = ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", model.call, input_signature=[spec])
    archive.add_endpoint("hidden", hidden.call, input_signature=[spec])
    archive.add_variable_collection("hidden_weights", model.get_layer("hidden").weights)
    archive.write_out(str(path), verbose=False)


def _describe(function):
    """A signature's inputs and outputs: names, dtypes, shapes."""
    _, inputs = function.structured_input_signature
    outputs = function.structured_outputs
    return (
        {k: (v.dtype.name, v.shape.as_list()) for k, v in inputs.items()},
        {k: (v.dtype.name, v.shape.as_list()) for k, v in outputs.items()},
    )


def test_export_archive_writes_what_keras_writes(keras_files, tmp_path):
    if _routes.native_step(backends.backend_module("export"), "tf_saved_model") is None:
        pytest.skip(f"ExportArchive does not trace on the {config.backend()} backend")
    tf = pytest.importorskip("tensorflow")

    out, inputs, expected = keras_files
    _mb_archive(keras_files, tmp_path / "archive")
    ours = tf.saved_model.load(str(tmp_path / "archive"))
    theirs = tf.saved_model.load(str(out / "archive"))
    assert set(ours.signatures) == set(theirs.signatures) == {"serve", "hidden", "serving_default"}
    for key in theirs.signatures:
        assert _describe(ours.signatures[key]) == _describe(theirs.signatures[key]), key
    for name in ("variables", "trainable_variables", "non_trainable_variables"):
        assert len(getattr(ours, name)) == len(getattr(theirs, name)), name
    _close([v.numpy() for v in ours.hidden_weights], [v.numpy() for v in theirs.hidden_weights])
    feed = {k: tf.constant(v) for k, v in inputs.items()}
    _close(ours.serve(feed), expected)
    _close(ours.serve(feed), theirs.serve(feed))
    _close([ours.hidden(feed)], [theirs.hidden(feed)])
    # Signature arguments are named as tf.function names them (after `call`'s parameter,
    # in the dict's sorted order), in Keras's archive and in mb's alike.
    named = {"inputs": feed["a"], "inputs_1": feed["b"]}
    for archive in (ours, theirs):
        outputs = archive.signatures["serving_default"](**named)
        _close([outputs[k] for k in sorted(outputs)], expected)


@pytest.mark.slow
def test_mb_export_converts_a_keras_file(keras_files, tmp_path):
    if pick_backend("onnx") is None:
        pytest.skip("no installed backend writes onnx")
    pytest.importorskip("onnxruntime")
    out, inputs, expected = keras_files
    target = str(tmp_path / "model.onnx")
    _, backend = _command.convert_file(str(out / "model.keras"), "onnx", target, verbose=False)
    assert "onnx" in _routes.NATIVE[backend]
    _close(_runtimes.run_onnx(target, [inputs]), expected)
