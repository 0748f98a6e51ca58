"""OrbaxCheckpoint: what it writes, that training resumes from it, and that Keras 3.15
(jax, in a subprocess) and mb read each other's checkpoints."""

import os
import sys
import textwrap

import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_ops import config, testing
from mb_train import callbacks as cb
from mb_train import optimizers
from mb_train.models import Sequential

pytest.importorskip(
    "orbax.checkpoint", reason="orbax-checkpoint is optional: pip install orbax-checkpoint"
)
pytestmark = pytest.mark.skipif(
    config.backend() not in ("jax", "torch", "tensorflow"),
    reason=f"fit() needs a backend that trains; {config.backend()} is inference-only",
)


def _model(name=None):
    model = Sequential([mb_layers.Input((3,)), mb_layers.layers.Dense(2, name="d")], name=name)
    model.compile(optimizers.Adam(name="adam") if name else "adam", "mse")
    return model


def _data(n=8):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.ones((3, 2))).astype("float32")


def _weights(model):
    return [np.asarray(v.numpy()) for v in model.variables]


def _optimizer_state(model):
    return [np.asarray(v.numpy()) for v in model.optimizer.variables]


def test_saves_every_save_freq_batches_and_keeps_max_to_keep(tmp_path):
    x, y = _data()
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt", save_freq=2, max_to_keep=2)
    _model().fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[saver])
    # 8 batches: steps 2, 4, 6, 8 written, the newest two kept.
    assert sorted(os.listdir(tmp_path / "ckpt"), key=int) == ["6", "8"]
    assert saver.is_primary_host() and not saver.is_multihost_enabled()


@pytest.mark.parametrize("background", [True, False])
def test_training_resumes_from_the_checkpoint(tmp_path, background):
    x, y = _data()
    model = _model()
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt", save_on_background=background)
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[saver])
    saver.wait_until_finished()
    assert os.listdir(tmp_path / "ckpt") == ["1"]  # the epoch's index; max_to_keep=1
    restored = mb_saving.load_model(tmp_path / "ckpt")
    for got, expected in zip(_weights(restored), _weights(model), strict=True):
        np.testing.assert_array_equal(got, expected)
    for got, expected in zip(_optimizer_state(restored), _optimizer_state(model), strict=True):
        np.testing.assert_array_equal(got, expected)
    # One more epoch of each takes the same steps (Adam's moments and step count restored).
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    restored.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    for got, expected in zip(_weights(restored), _weights(model), strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_load_weights_reads_a_checkpoint_and_weights_only_has_no_model(tmp_path):
    x, y = _data()
    model = _model()
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt", save_weights_only=True)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, callbacks=[saver])
    fresh = _model()
    fresh.load_weights(tmp_path / "ckpt")
    for got, expected in zip(_weights(fresh), _weights(model), strict=True):
        np.testing.assert_array_equal(got, expected)
    with pytest.raises(ValueError, match="save_weights_only=True"):
        mb_saving.load_model(tmp_path / "ckpt")


def test_load_weights_matches_variables_whatever_the_models_are_named(tmp_path):
    # `sequential_4` and `adam_4` saved, `sequential_5` and `adam_5` loading: variables
    # are matched on their paths relative to the model and the optimizer.
    x, y = _data()
    model = _model()
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt")
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, callbacks=[saver])
    fresh = _model()
    assert fresh.name != model.name and fresh.optimizer.name != model.optimizer.name
    fresh.load_weights(tmp_path / "ckpt")
    for got, expected in zip(_optimizer_state(fresh), _optimizer_state(model), strict=True):
        np.testing.assert_array_equal(got, expected)


def test_a_checkpoint_of_another_model_is_refused_and_assigns_nothing(tmp_path):
    x, y = _data()
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt")
    _model().fit(x, y, batch_size=4, epochs=1, verbose=0, callbacks=[saver])
    other = Sequential([mb_layers.Input((3,)), mb_layers.layers.Dense(5, name="d")])
    before = _weights(other)
    with pytest.raises(ValueError, match=r"'sequential_\d+/d/kernel' has shape \(3, 2\)"):
        other.load_weights(tmp_path / "ckpt")
    for got, expected in zip(_weights(other), before, strict=True):
        np.testing.assert_array_equal(got, expected)


def test_save_best_only_saves_only_improvements(tmp_path):
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt", monitor="loss", save_best_only=True)
    saver.set_model(_model())
    saver._save = lambda step: saved.append(step)
    saved = []
    for epoch, loss in enumerate([3.0, 2.0, 2.5, 1.0]):
        saver.on_epoch_end(epoch, {"loss": loss})
    assert saved == [0, 1, 3] and saver.best == 1.0
    with pytest.warns(UserWarning, match="Can save best model only with loss available"):
        saver.on_epoch_end(4, {"accuracy": 1.0})


def test_bad_arguments_say_what_was_received(tmp_path):
    with pytest.raises(ValueError, match=r"'epoch' or a positive int. Received: save_freq='batch'"):
        cb.OrbaxCheckpoint(tmp_path, save_freq="batch")
    with pytest.raises(ValueError, match="Received: max_to_keep=0"):
        cb.OrbaxCheckpoint(tmp_path, max_to_keep=0)


def test_without_orbax_the_error_names_the_install_command(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "orbax.checkpoint", None)
    with pytest.raises(ImportError, match="pip install orbax-checkpoint"):
        cb.OrbaxCheckpoint(tmp_path)


_KERAS = textwrap.dedent(
    """
    import sys
    import numpy as np
    import keras

    mode, folder = sys.argv[1], sys.argv[2]
    layers = [keras.Input((3,)), keras.layers.Dense(2, name="d")]
    model = keras.Sequential(layers, name="net")
    model.compile("adam", "mse")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 3)).astype("float32")
    y = (x @ np.ones((3, 2))).astype("float32")
    if mode == "write":
        saver = keras.callbacks.OrbaxCheckpoint(folder + "/ckpt")
        model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[saver])
        saver.wait_until_finished()
    else:
        model.optimizer.build(model.trainable_variables)
        model.load_weights(folder + "/ckpt")
    variables = model.variables + model.optimizer.variables
    np.savez(folder + "/keras.npz", *[np.asarray(v.numpy()) for v in variables])
    """
)


def _run_keras(mode, folder):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    testing.run_keras(_KERAS, mode, str(folder), PYTHONWARNINGS="ignore")
    with np.load(folder / "keras.npz") as saved:
        return [saved[f"arr_{i}"] for i in range(len(saved.files))]


def test_keras_reads_what_mb_writes(tmp_path):
    x, y = _data()
    model = _model(name="net")  # Keras matches variables by their whole path, names too
    saver = cb.OrbaxCheckpoint(tmp_path / "ckpt")
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[saver])
    # Keras's load_weights: Keras 3.15's load_model rebuilds the model with paths that
    # miss the model's name and silently leaves the weights at their initial values.
    got = _run_keras("read", tmp_path)
    expected = _weights(model) + _optimizer_state(model)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g, e)


def test_mb_reads_what_keras_writes(tmp_path):
    expected = _run_keras("write", tmp_path)
    restored = mb_saving.load_model(tmp_path / "ckpt")
    got = _weights(restored) + _optimizer_state(restored)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g, e)
