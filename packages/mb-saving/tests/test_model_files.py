"""``model.save`` / ``load_model`` within mb: every model kind comes back with the same numbers."""

import json
import os
import zipfile

import mb_saving_zoo as zoo
import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_ops import backends
from mb_ops.core import convert_to_numpy
from mb_train import optimizers
from mb_train.models import Model, Sequential

K = type("K", (), {})()
K.Input, K.layers, K.Model, K.Sequential = mb_layers.Input, layers, Model, Sequential
K.register = mb_saving.register_keras_serializable
zoo.custom_classes(K)


@pytest.mark.parametrize("name", sorted(zoo.BUILDERS))
def test_saved_model_loads_with_the_same_predictions(tmp_path, name):
    model = zoo.BUILDERS[name](K)
    x = zoo.inputs(name)
    model(x)
    zoo.randomize(model)
    model.save(tmp_path / "m.keras")
    loaded = mb_saving.load_model(tmp_path / "m.keras")
    assert type(loaded) is type(model)
    for got, want in zip(
        zoo.flat_outputs(loaded.predict(x, verbose=0)),
        zoo.flat_outputs(model.predict(x, verbose=0)),
        strict=True,
    ):
        np.testing.assert_array_equal(got, want)


def test_file_is_a_stored_zip_with_keras_members_in_keras_order(tmp_path):
    model = zoo.BUILDERS["mlp"](K)
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        infos = archive.infolist()
        config = json.loads(archive.read("config.json"))
        metadata = json.loads(archive.read("metadata.json"))
    assert [i.filename for i in infos] == ["metadata.json", "config.json", "model.weights.h5"]
    assert all(i.compress_type == zipfile.ZIP_STORED for i in infos)
    assert (config["module"], config["class_name"]) == ("keras", "Sequential")
    assert config["compile_config"] == {}
    assert set(metadata) == {"keras_version", "date_saved", "mb"}


def test_zipped_false_writes_a_folder_that_loads(tmp_path):
    model = zoo.BUILDERS["shared"](K)
    x = zoo.inputs("shared")
    model.save(tmp_path / "folder_model", zipped=False)
    assert sorted(p.name for p in (tmp_path / "folder_model").iterdir()) == [
        "config.json",
        "metadata.json",
        "model.weights.h5",
    ]
    loaded = mb_saving.load_model(tmp_path / "folder_model")
    for got, want in zip(loaded.predict(x, verbose=0), model.predict(x, verbose=0), strict=True):
        np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(
    "value_and_grad" in getattr(backends.backend_module("training"), "UNSUPPORTED", {}),
    reason="the backend declares value_and_grad unsupported (inference-only): fit cannot run",
)
def test_compiled_model_keeps_its_training_setup_and_optimizer_state(tmp_path):
    model = zoo.BUILDERS["mlp"](K)
    model.compile(optimizers.SGD(0.1, momentum=0.9), "sparse_categorical_crossentropy")
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(8, 4)).astype("float32"), rng.integers(0, 3, size=(8,))
    model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    model.save(tmp_path / "m.keras")
    loaded = mb_saving.load_model(tmp_path / "m.keras")
    assert type(loaded.optimizer).__name__ == "SGD" and loaded.optimizer.momentum == 0.9
    assert loaded.loss == "sparse_categorical_crossentropy"
    assert int(loaded.optimizer.iterations.numpy()) == 4
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables, strict=True):
        np.testing.assert_array_equal(np.asarray(a.numpy()), np.asarray(b.numpy()))
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    loaded.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    for a, b in zip(loaded.get_weights(), model.get_weights(), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_compile_false_skips_the_optimizer(tmp_path):
    model = zoo.BUILDERS["mlp"](K)
    model.compile(optimizers.Adam(), "mse")
    model.build((None, 4))
    model.optimizer.build(model.trainable_variables)
    model.save(tmp_path / "m.keras")
    loaded = mb_saving.load_model(tmp_path / "m.keras", compile=False)
    assert loaded.optimizer is None and not loaded.compiled


def test_overwrite_false_refuses_an_existing_file(tmp_path):
    model = zoo.BUILDERS["mlp"](K)
    model.save(tmp_path / "m.keras")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        model.save(tmp_path / "m.keras", overwrite=False)


@pytest.mark.parametrize(
    ("filename", "message"),
    [("m.h5", "legacy Keras 2"), ("m.pkl", "must end in '.keras'")],
)
def test_save_refuses_other_extensions(tmp_path, filename, message):
    with pytest.raises(ValueError, match=message):
        zoo.BUILDERS["mlp"](K).save(tmp_path / filename)


def test_load_model_on_a_weights_file_says_to_use_load_weights(tmp_path):
    model = zoo.BUILDERS["mlp"](K)
    model.save_weights(tmp_path / "m.weights.h5")
    with pytest.raises(ValueError, match="load_weights"):
        mb_saving.load_model(tmp_path / "m.weights.h5")


def test_a_subclassed_model_whose_sublayers_are_built_only_by_call_still_loads(tmp_path):
    # Keras cannot reload such a model ("layer ... was never built"); mb builds the
    # sub-layers by a symbolic call on the recorded input shape.
    @mb_saving.register_keras_serializable(package="tests")
    class Lazy(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = layers.Dense(3)
            self.norm = layers.LayerNormalization()

        def build(self, input_shape):
            self.offset = self.add_weight(shape=(3,), initializer="zeros", name="offset")

        def call(self, x):
            return self.norm(self.inner(x)) + self.offset

    model = Sequential([mb_layers.Input((4,)), Lazy(), layers.Dense(1)])
    x = np.random.default_rng(0).normal(size=(2, 4)).astype("float32")
    zoo.randomize(model)
    model.save(tmp_path / "m.keras")
    loaded = mb_saving.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_subclassed_model_without_build_method_records_its_build_config(tmp_path):
    @mb_saving.register_keras_serializable(package="tests")
    class Plain(Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = Plain()
    x = np.ones((2, 3), "float32")
    model(x)
    model.save(tmp_path / "m.keras")
    np.testing.assert_array_equal(
        convert_to_numpy(mb_saving.load_model(tmp_path / "m.keras")(x)), convert_to_numpy(model(x))
    )


def test_stacked_rnn_cells_reload(tmp_path):
    cells = layers.StackedRNNCells([layers.LSTMCell(3), layers.GRUCell(2)])
    model = Sequential([mb_layers.Input((5, 4)), layers.RNN(cells)])
    x = np.random.default_rng(0).normal(size=(2, 5, 4)).astype("float32")
    model.save(tmp_path / "m.keras")
    np.testing.assert_array_equal(
        convert_to_numpy(mb_saving.load_model(tmp_path / "m.keras")(x)), convert_to_numpy(model(x))
    )


@mb_saving.register_keras_serializable(package="tests")
class Vocabulary(layers.Layer):
    """Maps ids to the length of their word; the words are an asset, not a variable."""

    def __init__(self, words=(), **kwargs):
        super().__init__(**kwargs)
        self.words = list(words)

    def call(self, ids):
        lengths = np.array([len(w) for w in self.words], "float32")
        return lengths[np.asarray(ids).astype("int64")]

    def get_config(self):
        return super().get_config()  # the words are saved as an asset

    def save_assets(self, folder):
        with open(os.path.join(folder, "vocabulary.txt"), "w") as f:
            f.write("\n".join(self.words))

    def load_assets(self, folder):
        with open(os.path.join(folder, "vocabulary.txt")) as f:
            self.words = f.read().split("\n")


@pytest.mark.parametrize("zipped", [True, False])
def test_assets_are_saved_under_the_objects_path_and_restored(tmp_path, zipped):
    model = Sequential([Vocabulary(["a", "tree", "ox"], name="vocab")], name="lookup")
    path = tmp_path / ("m.keras" if zipped else "m_folder")
    model.save(path, zipped=zipped)
    if zipped:
        with zipfile.ZipFile(path) as archive:
            assert archive.read("assets/layers/vocabulary/vocabulary.txt") == b"a\ntree\nox"
    loaded = mb_saving.load_model(path)
    assert loaded.layers[0].words == ["a", "tree", "ox"]
    np.testing.assert_array_equal(loaded.layers[0](np.array([1, 0, 2])), [4.0, 1.0, 2.0])


@pytest.mark.parametrize("zipped", [True, False])
def test_lookup_layers_never_adapted_save_and_load(tmp_path, zipped):
    inputs = layers.Input((2,), dtype="int64")
    model = Model(inputs, layers.IntegerLookup(name="ids")(inputs))
    path = tmp_path / ("m.keras" if zipped else "m_folder")
    model.save(path, zipped=zipped)
    if zipped:  # as Keras: the special tokens alone, since the config holds no vocabulary
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith("vocabulary.txt")]
            assert len(names) == 1 and archive.read(names[0]) == b"-1"
    loaded = mb_saving.load_model(path)
    lookup = loaded.get_layer("ids")
    assert lookup.get_vocabulary() == [-1] and lookup.get_config()["vocabulary"] is None
    lookup.adapt(np.array([7, 7, 3]))
    np.testing.assert_array_equal(np.asarray(lookup(np.array([[3, 7]]))), [[2, 1]])


def test_to_json_and_model_from_json_rebuild_the_architecture():
    model = Sequential(
        [layers.Input((3,)), layers.Dense(4, activation="relu", name="hidden"), layers.Dense(1)],
        name="net",
    )
    text = model.to_json(indent=2)
    config = json.loads(text)
    assert config["class_name"] == "Sequential" and config["config"]["name"] == "net"
    revived = mb_saving.model_from_json(text)
    assert [layer.name for layer in revived.layers] == [layer.name for layer in model.layers]
    revived.set_weights(model.get_weights())
    data = np.ones((2, 3), "float32")
    np.testing.assert_allclose(
        convert_to_numpy(revived(data)), convert_to_numpy(model(data)), rtol=1e-6
    )
