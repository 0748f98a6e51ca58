"""mb's extra metadata (backend, versions, manifest) and ``inspect``, which runs no file code."""

import importlib.metadata
import json
import os
import zipfile

import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_train import optimizers
from mb_train.models import Sequential


def _installed(distribution):
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:  # an install without the umbrella
        return None


def _model():
    return Sequential(
        [mb_layers.Input((4,)), layers.Dense(3, name="hidden"), layers.Dense(2, name="out")],
        name="small",
    )


def test_metadata_records_backend_versions_and_a_manifest(tmp_path):
    _model().save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        metadata = json.loads(archive.read("metadata.json"))
    assert metadata["keras_version"] == "3.15.1"
    block = metadata["mb"]
    assert block["backend"] == os.environ["MB_BACKEND"]
    assert block["versions"]["mb-saving"] == mb_saving.__version__
    assert block["versions"].get("mb-framework") == _installed("mb-framework")
    assert block["engine"]  # e.g. {"jax": "0.10.2", "jaxlib": "0.10.2"}
    by_path = {entry["path"]: entry for entry in block["manifest"]}
    assert by_path[""]["class_name"] == "Sequential" and by_path[""]["variables"] == []
    hidden = by_path["layers/dense"]
    assert hidden["name"] == "hidden"
    assert [(v["path"], v["shape"], v["dtype"]) for v in hidden["variables"]] == [
        ("small/hidden/kernel", [4, 3], "float32"),
        ("small/hidden/bias", [3], "float32"),
    ]


def test_inspect_describes_model_layers_compile_setup_and_weights(tmp_path):
    model = _model()
    model.compile(optimizers.Adam(), "mse")
    model.save(tmp_path / "m.keras")
    info = mb_saving.inspect(tmp_path / "m.keras")
    assert info["kind"] == "model" and info["mb"]["backend"] == os.environ["MB_BACKEND"]
    listed = [(layer["name"], layer["class_name"]) for layer in info["model"]["layers"]]
    assert listed[0][1] == "InputLayer" and listed[1:] == [("hidden", "Dense"), ("out", "Dense")]
    assert info["model"]["compiled"] and info["model"]["optimizer"] == "Adam"
    groups = {g["path"]: g["variables"] for g in info["weights"]}
    assert [(v["name"], v["shape"]) for v in groups["layers/dense"]] == [
        ("small/hidden/kernel", [4, 3]),
        ("small/hidden/bias", [3]),
    ]
    # The optimizer is not built yet: it holds only its iteration count and learning rate.
    assert info["parameters"] == model.count_params() + len(model.optimizer.variables)
    text = mb_saving.format_inspection(info)
    assert "written by mb on backend" in text and "layers/dense: small/hidden/kernel (4, 3)" in text


def test_inspect_shows_the_quantization_of_each_layer(tmp_path):
    inner = Sequential([layers.Dense(3, name="inner_dense")], name="block")
    model = Sequential(
        [mb_layers.Input((4,)), layers.Dense(3, name="hidden"), inner, layers.Dense(2, name="out")],
        name="quantized",
    )
    model.layers[0].quantize("int8")
    inner.layers[0].quantize("int4")
    model.save(tmp_path / "q.keras")
    info = mb_saving.inspect(tmp_path / "q.keras")
    assert info["model"]["quantized"] == {
        "hidden": "int8_from_float32",
        "block/inner_dense": model.layers[1].layers[0].dtype_policy.name,
    }
    assert info["model"]["quantized"]["block/inner_dense"].startswith("int4")
    text = mb_saving.format_inspection(info)
    assert "quantized: hidden (int8_from_float32)" in text
    assert "out" not in info["model"]["quantized"]  # a float layer is not listed


def test_inspect_runs_no_code_from_the_file(tmp_path):
    @mb_saving.register_keras_serializable(package="inspect_tests")
    class Trap(layers.Layer):
        created = 0

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            type(self).created += 1

        def call(self, x):
            return x

    Sequential([mb_layers.Input((2,)), Trap(), layers.Lambda(lambda x: x)]).save(
        tmp_path / "m.keras"
    )
    created = Trap.created
    info = mb_saving.inspect(tmp_path / "m.keras")
    assert Trap.created == created  # no object was made from the config
    assert [layer["class_name"] for layer in info["model"]["layers"]][1:] == ["Trap", "Lambda"]
    assert len(info["refused_by_safe_mode"]) == 1 and "lambda" in info["refused_by_safe_mode"][0]


def test_inspect_of_a_keras_written_file_has_no_mb_block(keras_files):
    info = mb_saving.inspect(keras_files / "mlp.keras")
    assert info["mb"] is None and info["keras_version"]
    assert all(v["name"] is None for g in info["weights"] for v in g["variables"])
    assert "no mb metadata" in mb_saving.format_inspection(info)


def test_inspect_reads_weights_files_and_sharded_weights(tmp_path):
    model = _model()
    model.save_weights(tmp_path / "m.weights.h5")
    model.save_weights(tmp_path / "s.weights.json", max_shard_size=1e-7)
    single = mb_saving.inspect(tmp_path / "m.weights.h5")
    sharded = mb_saving.inspect(tmp_path / "s.weights.json")
    assert single["kind"] == "weights" and sharded["kind"] == "sharded weights"
    assert single["parameters"] == sharded["parameters"] == model.count_params()
    assert single["weights"] == sharded["weights"]
    assert single["mb"]["backend"] == os.environ["MB_BACKEND"]


def test_inspect_of_a_damaged_file_is_a_format_error(tmp_path):
    (tmp_path / "m.keras").write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(mb_saving.FileFormatError):
        mb_saving.inspect(tmp_path / "m.keras")
