"""ExportArchive (a SavedModel of chosen endpoints and variables) and TFSMLayer (a
SavedModel as a layer), on the leg's backend.

ExportArchive traces on the jax and tensorflow backends and refuses elsewhere,
naming where it works. TFSMLayer runs the SavedModel exported from the zoo's
dict-input model (written once per session, by this backend or converted on
another) and must give ``predict``'s numbers (rtol 1e-5); the Keras-3-written
SavedModel is checked once, in mb-export's own tests.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb
from mb import layers
from mb_export import _routes
from mb_ops import backends, config

pytestmark = pytest.mark.trains

RTOL, ATOL = 1e-5, 1e-6


@pytest.fixture(scope="module")
def tf():
    # Imported by the tests, not at collection: on the torch backend TensorFlow must load
    # after the backend (see mb_backend_torch._llvm).
    return pytest.importorskip("tensorflow")


def _archive_works():
    return _routes.native_step(backends.backend_module("export"), "tf_saved_model") is not None


def _close(got, expected):
    got = [np.asarray(g) for g in got]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL)


# ----- ExportArchive -------------------------------------------------------------------


@pytest.fixture(scope="module")
def archived(tmp_path_factory, zoo, tf):
    """The mlp in an archive: 'serve', a doubled 'double' and a collection of the first
    Dense layer's weights."""
    if not _archive_works():
        pytest.skip(f"ExportArchive does not trace on the {config.backend()} backend")
    model, arguments = zoo("mlp")
    spec = [mb.InputSpec(shape=(None, 4), dtype="float32")]
    archive = mb.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", model.call, input_signature=spec)
    archive.add_endpoint("double", lambda x: model(x) * 2.0, input_signature=spec)
    dense = model.layers[1]
    archive.add_variable_collection("dense_weights", dense.weights)
    path = str(tmp_path_factory.mktemp("archive") / "saved")
    archive.write_out(path, verbose=False)
    return model, arguments, archive, tf.saved_model.load(path)


def test_archive_endpoints_run_the_model(archived, predictions, tf):
    _, arguments, _, reloaded = archived
    (expected,) = predictions("mlp")
    _close([reloaded.serve(tf.constant(arguments[0]))], [expected])
    _close([reloaded.double(tf.constant(arguments[0]))], [2 * expected])
    # Every endpoint is a signature too, and the first one is also TF-Serving's default.
    assert set(reloaded.signatures) == {"serve", "double", "serving_default"}
    served = reloaded.signatures["serving_default"](tf.constant(arguments[0]))
    _close(list(served.values()), [expected])


def test_archive_keeps_the_tracked_variables_and_the_collection(archived):
    model, _, archive, reloaded = archived
    assert len(reloaded.variables) == len(model.weights)
    assert len(reloaded.trainable_variables) == len(model.trainable_weights)
    assert len(reloaded.non_trainable_variables) == len(model.non_trainable_weights)
    assert len(archive.variables) == len(model.weights)
    dense = model.layers[1]
    stored = [v.numpy() for v in reloaded.dense_weights]
    _close(stored, [np.asarray(w.numpy()) for w in dense.weights])


def test_archive_refuses_what_keras_refuses(archived, tmp_path):
    model, _, archive, _ = archived
    spec = [mb.InputSpec(shape=(None, 4), dtype="float32")]
    with pytest.raises(ValueError, match="Endpoint name 'serve' is already taken"):
        archive.add_endpoint("serve", model.call, input_signature=spec)
    with pytest.raises(ValueError, match="input_signature"):
        archive.add_endpoint("other", model.call)
    with pytest.raises(ValueError, match="list, tuple or set"):
        archive.add_variable_collection("one", model.weights[0])
    with pytest.raises(ValueError, match="has no endpoint"):
        mb.export.ExportArchive().write_out(str(tmp_path / "empty"))
    with pytest.raises(ValueError, match="has not been built"):
        mb.export.ExportArchive().track(layers.Dense(2))


def test_archive_is_refused_where_the_backend_cannot_trace_tf():
    if _archive_works():
        pytest.skip(f"ExportArchive works on the {config.backend()} backend")
    # Built as Keras builds it on every backend; refused at first use, saying where it works.
    archive = mb.export.ExportArchive()
    with pytest.raises(NotImplementedError, match="on the jax or tensorflow backend"):
        archive.track(layers.Dense(2))


# ----- TFSMLayer -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(exported, tf):
    return exported("dict_inputs", "tf_saved_model").path


def _inputs(zoo):
    _, arguments = zoo("dict_inputs")
    return arguments[0]


def test_tfsm_layer_gives_the_exported_models_numbers(saved, zoo, predictions):
    layer = layers.TFSMLayer(saved)
    outputs = layer(_inputs(zoo))
    _close([mb.ops.convert_to_numpy(o) for o in outputs], predictions("dict_inputs"))


def test_tfsm_layer_in_a_model_predicts(saved, zoo, predictions):
    a = layers.Input((3,), name="a")
    b = layers.Input((2,), name="b")
    wrapper = mb.Model({"a": a, "b": b}, layers.TFSMLayer(saved, trainable=False)({"a": a, "b": b}))
    try:
        got = wrapper.predict(_inputs(zoo), verbose=0)
    except RuntimeError as error:  # a backend that compiles predict: TF runs outside its jit
        assert "run_eagerly=True" in str(error)
        wrapper.compile(run_eagerly=True)
        got = wrapper.predict(_inputs(zoo), verbose=0)
    _close(got, predictions("dict_inputs"))


def test_tfsm_layer_refuses_training_unless_frozen(saved, zoo, predictions):
    layer = layers.TFSMLayer(saved, name="reloaded")
    with pytest.raises(ValueError, match="TFSMLayer 'reloaded' cannot be trained"):
        layer(_inputs(zoo), training=True)
    layer.trainable = False  # a frozen feature extractor runs its inference endpoint
    outputs = layer(_inputs(zoo), training=True)
    _close([mb.ops.convert_to_numpy(o) for o in outputs], predictions("dict_inputs"))


def test_tfsm_layer_from_a_keras_file_is_refused_in_safe_mode(saved, zoo, predictions, tmp_path):
    a = layers.Input((3,), name="a")
    b = layers.Input((2,), name="b")
    wrapper = mb.Model({"a": a, "b": b}, layers.TFSMLayer(saved, trainable=False)({"a": a, "b": b}))
    path = str(tmp_path / "wrapper.keras")
    wrapper.save(path)
    with pytest.raises(ValueError, match=r"TFSMLayer.* is refused because safe_mode=True"):
        mb.saving.load_model(path)
    reloaded = mb.saving.load_model(path, safe_mode=False)
    layer = next(lr for lr in reloaded.layers if isinstance(lr, layers.TFSMLayer))
    _close([mb.ops.convert_to_numpy(o) for o in layer(_inputs(zoo))], predictions("dict_inputs"))


def test_tfsm_layer_names_the_endpoints_it_has(saved):
    with pytest.raises(
        ValueError, match=r"Endpoints of this SavedModel: \['serve', 'serving_default'\]"
    ):
        layers.TFSMLayer(saved, call_endpoint="predict")
