"""``.keras`` files move between Keras 3 and mb in both directions, with the same numbers.

Keras 3 (jax backend) runs in a subprocess (`keras_side.py`); mb runs here on
the backend of MB_BACKEND. Each zoo model is built by the same code on both
sides (`zoo.py`), with random weights, so a wrong variable order or path
shows as different predictions.
"""

import os

import mb_saving_zoo as zoo
import numpy as np
import pytest
from mb_saving_helpers import run_keras

import mb_layers
import mb_saving
from mb_train import optimizers
from mb_train.models import Model, Sequential

K = type("K", (), {})()
K.Input, K.layers, K.Model, K.Sequential = mb_layers.Input, mb_layers.layers, Model, Sequential
K.register = mb_saving.register_keras_serializable
zoo.custom_classes(K)

NAMES = sorted(zoo.BUILDERS)


def _assert_outputs_match(got, expected, name):
    got = zoo.flat_outputs(got)
    assert len(got) == len(expected), name
    tol = zoo.TOLERANCE.get(name, 1e-5)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(
            np.asarray(g, dtype="float32"), e, atol=tol, rtol=tol, err_msg=name
        )


@pytest.mark.parametrize("name", NAMES)
def test_keras_written_model_loads_in_mb_and_predicts_the_same(keras_files, name):
    model = mb_saving.load_model(keras_files / f"{name}.keras")
    expected = np.load(keras_files / f"{name}.npz")
    outputs = model.predict(zoo.inputs(name), verbose=0)
    _assert_outputs_match(outputs, [expected[f"y{i}"] for i in range(len(expected.files))], name)


@pytest.fixture(scope="module")
def mb_files(tmp_path_factory):
    """Every zoo model saved by mb, with mb's predictions, then read back by Keras."""
    folder = tmp_path_factory.mktemp("mb_written")
    predictions = {}
    for name, build in zoo.BUILDERS.items():
        model = build(K)
        x = zoo.inputs(name)
        model(x)
        zoo.randomize(model)
        model.save(folder / f"{name}.keras")
        predictions[name] = zoo.flat_outputs(model.predict(x, verbose=0))
        if name == "conv":
            model.save_weights(folder / "conv.weights.json", max_shard_size=5e-7)
    run_keras("read", folder)
    return folder, predictions


@pytest.mark.parametrize("name", NAMES)
def test_mb_written_model_loads_in_keras_and_predicts_the_same(mb_files, name):
    folder, predictions = mb_files
    from_keras = np.load(folder / f"{name}.keras_out.npz")
    _assert_outputs_match(
        predictions[name], [from_keras[f"y{i}"] for i in range(len(from_keras.files))], name
    )


def test_sharded_weights_interchange_both_ways(keras_files, mb_files):
    model = zoo.BUILDERS["conv"](K)
    x = zoo.inputs("conv")
    model(x)
    model.load_weights(keras_files / "conv.weights.json")
    from_keras = np.load(keras_files / "conv.npz")
    _assert_outputs_match(model.predict(x, verbose=0), [from_keras["y0"]], "conv")
    folder, predictions = mb_files
    assert len(list(folder.glob("conv_*.weights.h5"))) > 1
    read_by_keras = np.load(folder / "conv.weights_out.npz")
    _assert_outputs_match(predictions["conv"], [read_by_keras["y0"]], "conv")


def _train_data():
    rng = np.random.default_rng(11)
    return rng.normal(size=(16, 4)).astype("float32"), rng.integers(0, 3, size=(16,))


def _flat(values):
    return np.concatenate(
        [np.ravel(np.asarray(v.numpy() if hasattr(v, "numpy") else v, "float64")) for v in values]
    )


def test_compiled_keras_model_resumes_training_in_mb_with_its_optimizer_state(keras_files):
    model = mb_saving.load_model(keras_files / "compiled.keras")
    reference = np.load(keras_files / "compiled.npz")
    assert type(model.optimizer).__name__ == "Adam"
    np.testing.assert_allclose(_flat(model.optimizer.variables), reference["optimizer"], atol=1e-7)
    x, y = _train_data()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_allclose(_flat(model.get_weights()), reference["after"], atol=1e-5)


def test_compiled_mb_model_resumes_training_in_keras_with_its_optimizer_state(tmp_path):
    model = zoo.BUILDERS["mlp"](K)
    model.compile(optimizers.Adam(1e-2), "sparse_categorical_crossentropy", metrics=["accuracy"])
    x, y = _train_data()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    model.save(tmp_path / "compiled_mb.keras")
    saved_state = _flat(model.optimizer.variables)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    run_keras("read", tmp_path)
    from_keras = np.load(tmp_path / "compiled_mb.keras_out.npz")
    np.testing.assert_allclose(from_keras["optimizer"], saved_state, atol=1e-7)
    np.testing.assert_allclose(from_keras["after"], _flat(model.get_weights()), atol=1e-5)


def test_mb_metadata_does_not_stop_keras_from_reading_the_file(mb_files):
    folder, _ = mb_files
    info = mb_saving.inspect(folder / "mlp.keras")
    assert info["mb"]["backend"] == os.environ["MB_BACKEND"]
    assert (folder / "mlp.keras_out.npz").exists()
