"""``save_weights`` / ``load_weights``: Keras's HDF5 layout, sharding, all-or-nothing loads."""

import json

import h5py
import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_train import optimizers
from mb_train.models import Model, Sequential


def _mlp(hidden=8, name="mlp"):
    model = Sequential(
        [
            mb_layers.Input((4,)),
            layers.Dense(hidden, activation="relu", name="hidden"),
            layers.Dense(3, name="out"),
        ],
        name=name,
    )
    rng = np.random.default_rng(hidden)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.weights])
    return model


def _weights(model):
    return [np.asarray(w) for w in model.get_weights()]


def test_weights_round_trip_into_a_fresh_model(tmp_path):
    source, target = _mlp(), _mlp()
    target.set_weights([w * 0 for w in target.get_weights()])
    source.save_weights(tmp_path / "m.weights.h5")
    target.load_weights(tmp_path / "m.weights.h5")
    for a, b in zip(_weights(target), _weights(source), strict=True):
        np.testing.assert_array_equal(a, b)


def test_weights_file_has_keras_groups_and_mb_manifest(tmp_path):
    _mlp().save_weights(tmp_path / "m.weights.h5")
    with h5py.File(tmp_path / "m.weights.h5") as f:
        # Paths follow the class (dense, dense_1); the attribute keeps the layer's name.
        assert dict(f["layers/dense/vars"].attrs) == {"name": "hidden"}
        assert f["layers/dense/vars/0"].shape == (4, 8)
        assert f["layers/dense_1/vars/1"].shape == (3,)
        assert f["vars"].attrs["name"] == "mlp" and len(f["vars"]) == 0
        block = json.loads(f.attrs["mb_metadata"])
    entry = next(e for e in block["manifest"] if e["path"] == "layers/dense")
    assert [v["path"] for v in entry["variables"]] == ["mlp/hidden/kernel", "mlp/hidden/bias"]
    assert block["backend"] and block["versions"]["mb-saving"]


def test_sharded_weights_split_by_max_shard_size_and_load_back(tmp_path):
    source = Sequential(
        [mb_layers.Input((16,)), layers.Dense(32), layers.Dense(32), layers.Dense(4)]
    )
    # Kernels of 2048, 4096 and 512 bytes: shards of at most 4509 bytes hold one each.
    source.save_weights(tmp_path / "big.weights.json", max_shard_size=4.2e-6)
    index = json.loads((tmp_path / "big.weights.json").read_text())
    shards = sorted(p.name for p in tmp_path.glob("big_*.weights.h5"))
    assert shards == [f"big_0000{i}.weights.h5" for i in range(3)]
    assert index["metadata"]["total_size"] == sum(
        np.asarray(w).nbytes for w in source.get_weights()
    )
    assert set(index["weight_map"]) == {
        "/layers/dense/vars",
        "/layers/dense_1/vars",
        "/layers/dense_2/vars",
    }
    target = Sequential(
        [mb_layers.Input((16,)), layers.Dense(32), layers.Dense(32), layers.Dense(4)]
    )
    target.load_weights(tmp_path / "big.weights.json")
    for a, b in zip(_weights(target), _weights(source), strict=True):
        np.testing.assert_array_equal(a, b)


def test_an_array_larger_than_a_shard_is_an_error_that_says_what_to_raise(tmp_path):
    model = _mlp()
    with pytest.raises(ValueError, match="Raise max_shard_size"):
        model.save_weights(tmp_path / "m.weights.json", max_shard_size=1e-9)
    assert list(tmp_path.iterdir()) == []  # no index, no shards, no staging folder left


def test_shape_mismatch_names_path_variables_and_file_contents_and_assigns_nothing(tmp_path):
    _mlp(hidden=8).save_weights(tmp_path / "m.weights.h5")
    target = _mlp(hidden=5)
    before = _weights(target)
    with pytest.raises(mb_saving.WeightsMismatchError) as caught:
        target.load_weights(tmp_path / "m.weights.h5")
    message = str(caught.value)
    assert "'layers/dense' (layer 'hidden' (Dense))" in message
    assert "variable 'mlp/hidden/kernel' is (4, 5) float32 in the model" in message
    assert "'layers/dense/vars/0' in the file is (4, 8) float32" in message
    assert "'0' = mlp/hidden/kernel (4, 8) float32" in message  # from the file's manifest
    assert "nothing was loaded" in message
    assert len(caught.value.problems) == 2  # both Dense layers differ
    for a, b in zip(_weights(target), before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_missing_and_extra_objects_are_reported_together(tmp_path):
    small = Sequential([mb_layers.Input((4,)), layers.Dense(3)], name="small")
    small.save_weights(tmp_path / "small.weights.h5")
    with pytest.raises(mb_saving.WeightsMismatchError, match="expects 2 variable") as caught:
        _mlp().load_weights(tmp_path / "small.weights.h5")
    assert "'layers/dense_1'" in str(caught.value)
    _mlp().save_weights(tmp_path / "big.weights.h5")
    with pytest.raises(mb_saving.WeightsMismatchError, match="no object of the model owns"):
        Sequential([mb_layers.Input((4,)), layers.Dense(8)]).load_weights(
            tmp_path / "big.weights.h5"
        )


def test_skip_mismatch_warns_and_loads_the_objects_that_match(tmp_path):
    source = Sequential([mb_layers.Input((4,)), layers.Dense(8), layers.Dense(3)])
    source.save_weights(tmp_path / "m.weights.h5")
    target = Sequential([mb_layers.Input((4,)), layers.Dense(8), layers.Dense(2)])
    with pytest.warns(UserWarning, match="they were skipped"):
        target.load_weights(tmp_path / "m.weights.h5", skip_mismatch=True)
    np.testing.assert_array_equal(target.layers[0].kernel.numpy(), source.layers[0].kernel.numpy())


def test_objects_to_skip_keep_their_values(tmp_path):
    source, target = _mlp(), _mlp(hidden=8, name="other")
    target.set_weights([w + 1 for w in target.get_weights()])
    kept = np.asarray(target.layers[0].kernel.numpy())
    source.save_weights(tmp_path / "m.weights.h5")
    target.load_weights(tmp_path / "m.weights.h5", objects_to_skip=[target.layers[0]])
    np.testing.assert_array_equal(target.layers[0].kernel.numpy(), kept)
    np.testing.assert_array_equal(target.layers[1].kernel.numpy(), source.layers[1].kernel.numpy())


def _datasets(path):
    found = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            found.append(name)

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return found


def test_save_weights_leaves_out_objects_to_skip(tmp_path):
    source, target = _mlp(), _mlp(hidden=8, name="other")
    target.set_weights([w + 1 for w in target.get_weights()])
    kept = np.asarray(target.layers[0].kernel.numpy())
    mb_saving.save_weights(source, tmp_path / "all.weights.h5")
    mb_saving.save_weights(source, tmp_path / "m.weights.h5", objects_to_skip=[source.layers[0]])
    assert len(_datasets(tmp_path / "all.weights.h5")) == 4  # two kernels, two biases
    assert len(_datasets(tmp_path / "m.weights.h5")) == 2  # only the "out" layer's
    target.load_weights(tmp_path / "m.weights.h5", objects_to_skip=[target.layers[0]])
    np.testing.assert_array_equal(target.layers[0].kernel.numpy(), kept)
    np.testing.assert_array_equal(target.layers[1].kernel.numpy(), source.layers[1].kernel.numpy())
    with pytest.raises(TypeError, match="unsupported arguments \\['by_name'\\]"):
        mb_saving.save_weights(source, tmp_path / "x.weights.h5", by_name=True)


def test_load_weights_reads_a_keras_file_including_the_optimizer_state(tmp_path):
    model = _mlp()
    model.compile(optimizers.Adam(0.01), "mse")
    model.fit(np.ones((4, 4), "float32"), np.ones((4, 3), "float32"), verbose=0)
    model.save(tmp_path / "m.keras")
    other = _mlp(name="other")
    other.compile(optimizers.Adam(0.01), "mse")
    other.load_weights(tmp_path / "m.keras")
    for a, b in zip(other.optimizer.variables, model.optimizer.variables, strict=True):
        np.testing.assert_array_equal(np.asarray(a.numpy()), np.asarray(b.numpy()))


def test_optimizer_state_that_does_not_fit_is_a_precise_warning(tmp_path):
    model = _mlp()
    model.compile(optimizers.Adam(0.01), "mse")
    model.fit(np.ones((4, 4), "float32"), np.ones((4, 3), "float32"), verbose=0)
    model.save(tmp_path / "m.keras")
    other = _mlp(name="other")
    other.compile(optimizers.SGD(0.01, momentum=0.5), "mse")
    with pytest.warns(UserWarning, match="optimizer 'adam'|optimizer 'SGD'|optimizer state"):
        other.load_weights(tmp_path / "m.keras")
    np.testing.assert_array_equal(other.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())


def test_unbuilt_model_cannot_save_or_load_weights(tmp_path):
    model = Sequential([layers.Dense(2)])
    with pytest.raises(ValueError, match="not built"):
        model.save_weights(tmp_path / "m.weights.h5")
    with pytest.raises(ValueError, match="not built"):
        model.load_weights(tmp_path / "m.weights.h5")


@pytest.mark.parametrize("filename", ["m.h5", "m.weights.npz", "m.txt"])
def test_weights_paths_need_the_keras_extensions(tmp_path, filename):
    with pytest.raises(ValueError, match="weights"):
        _mlp().save_weights(tmp_path / filename)


def test_functional_model_layout_lists_input_layers_and_shares_a_layer_once(tmp_path):
    a, b = mb_layers.Input((2,), name="a"), mb_layers.Input((2,), name="b")
    shared = layers.Dense(2, name="shared")
    model = Model([a, b], layers.Add()([shared(a), shared(b)]))
    model.save_weights(tmp_path / "f.weights.h5")
    with h5py.File(tmp_path / "f.weights.h5") as f:
        groups = sorted(name for name in f["layers"])
    assert groups == ["add", "dense", "input_layer", "input_layer_1"]
