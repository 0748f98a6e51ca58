"""Keras 2 ``.h5`` weights (``keras.applications``' published files): read in order or by
name, all or nothing, through the same safety checks as ``.weights.h5``."""

import inspect
import textwrap

import h5py
import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_ops import testing
from mb_train.models import Functional, Sequential


def net(L, Input, Model, Sequential, head=5, extra=False):
    """The same small network in Keras and in mb: a conv, a frozen BatchNormalization,
    a nested Sequential, an unweighted layer, a dense head."""
    x = Input((6, 6, 3))
    y = L.Conv2D(4, 3, name="conv")(x)
    bn = L.BatchNormalization(name="bn")
    bn.trainable = False
    y = L.Activation("relu")(bn(y))
    inner = [L.Conv2D(4, 1, name="inner_conv"), L.LayerNormalization(name="inner_ln")]
    y = Sequential(inner, name="inner")(y)
    if extra:
        y = L.Conv2D(4, 1, name="extra")(y)
    y = L.GlobalAveragePooling2D()(y)
    return Model(x, L.Dense(head, name="head")(y))


_KERAS = inspect.getsource(net) + textwrap.dedent(
    """
    import sys, numpy as np, keras
    from keras.src.legacy.saving import legacy_h5_format
    import h5py
    folder = sys.argv[1]
    model = net(keras.layers, keras.Input, keras.Model, keras.Sequential)
    rng = np.random.default_rng(3)
    for v in model.weights:
        value = rng.normal(size=v.shape)
        if "variance" in v.path:
            value = np.abs(value) + 0.5
        v.assign(value.astype("float32"))
    x = rng.normal(size=(2, 6, 6, 3)).astype("float32")
    np.savez(f"{folder}/io.npz", x=x, y=model.predict(x, verbose=0))
    model.save(f"{folder}/whole.h5")  # Keras's legacy whole-model file: model_weights group
    with h5py.File(f"{folder}/weights.h5", "w") as f:  # the published weight files' layout
        legacy_h5_format.save_weights_to_hdf5_group(f, model)
    """
)


def _mb_net(**kwargs):
    return net(layers, mb_layers.Input, Functional, Sequential, **kwargs)


@pytest.fixture(scope="module")
def keras_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("legacy")
    testing.run_keras(_KERAS, str(folder), backend="numpy")
    return folder


@pytest.mark.parametrize("name", ["whole.h5", "weights.h5"])
def test_keras_2_files_load_in_order_and_predict_as_keras(keras_files, name):
    io = np.load(keras_files / "io.npz")
    model = _mb_net()
    model.load_weights(keras_files / name)
    np.testing.assert_allclose(np.asarray(model(io["x"])), io["y"], rtol=1e-5, atol=1e-5)


def test_by_name_matches_layers_whatever_their_order_and_leaves_others_alone(keras_files):
    io = np.load(keras_files / "io.npz")
    model = _mb_net(extra=True)  # an extra conv: by order this file does not fit
    with pytest.raises(mb_saving.WeightsMismatchError, match="Layer count mismatch"):
        model.load_weights(keras_files / "weights.h5")
    before = model.get_layer("extra").get_weights()
    model.load_weights(keras_files / "weights.h5", by_name=True)
    reference = _mb_net()
    reference.load_weights(keras_files / "weights.h5")
    for layer in ("conv", "bn", "inner", "head"):
        for a, b in zip(
            model.get_layer(layer).get_weights(),
            reference.get_layer(layer).get_weights(),
            strict=True,
        ):
            np.testing.assert_array_equal(a, b)
    for a, b in zip(model.get_layer("extra").get_weights(), before, strict=True):
        np.testing.assert_array_equal(a, b)
    assert io["y"].shape == (2, 5)


def test_a_shape_mismatch_loads_nothing_unless_skipped(keras_files):
    model = _mb_net(head=7)
    conv_before = model.get_layer("conv").get_weights()[0].copy()
    with pytest.raises(mb_saving.WeightsMismatchError, match=r"'head'.*\(4, 7\)") as info:
        model.load_weights(keras_files / "weights.h5")
    assert "nothing was loaded" in str(info.value)
    np.testing.assert_array_equal(model.get_layer("conv").get_weights()[0], conv_before)
    with pytest.warns(UserWarning, match="Skipped mismatching weights"):
        model.load_weights(keras_files / "weights.h5", skip_mismatch=True)
    reference = _mb_net()
    reference.load_weights(keras_files / "weights.h5")
    np.testing.assert_array_equal(
        model.get_layer("conv").get_weights()[0], reference.get_layer("conv").get_weights()[0]
    )


def test_options_of_other_formats_are_refused(keras_files, tmp_path):
    model = _mb_net()
    with pytest.raises(ValueError, match="objects_to_skip"):
        model.load_weights(keras_files / "weights.h5", objects_to_skip=[model.layers[1]])
    model.save_weights(tmp_path / "m.weights.h5")
    with pytest.raises(ValueError, match="`by_name` only supports"):
        model.load_weights(tmp_path / "m.weights.h5", by_name=True)
    with pytest.raises(FileNotFoundError):
        model.load_weights(tmp_path / "missing.h5")


def _copy_with(source, target, edit):
    with h5py.File(source, "r") as src, h5py.File(target, "w") as dst:
        for key in src:
            src.copy(key, dst)
        for key, value in src.attrs.items():
            dst.attrs[key] = value
        edit(dst)


def test_chunked_name_attributes_are_read(keras_files, tmp_path):
    def split(f):
        names = f.attrs["layer_names"]
        del f.attrs["layer_names"]
        f.attrs["layer_names0"], f.attrs["layer_names1"] = names[:3], names[3:]

    _copy_with(keras_files / "weights.h5", tmp_path / "chunked.h5", split)
    io = np.load(keras_files / "io.npz")
    model = _mb_net()
    model.load_weights(tmp_path / "chunked.h5")
    np.testing.assert_allclose(np.asarray(model(io["x"])), io["y"], rtol=1e-5, atol=1e-5)


def test_malformed_files_raise_file_format_errors(keras_files, tmp_path):
    def numbers(f):
        f.attrs["layer_names"] = np.arange(3)

    def missing_dataset(f):
        del f["head"][_text(f["head"].attrs["weight_names"][0])]

    def no_names(f):
        del f.attrs["layer_names"]

    cases = [(numbers, "should list names"), (missing_dataset, "missing"), (no_names, "Keras 2")]
    for edit, message in cases:
        _copy_with(keras_files / "weights.h5", tmp_path / "bad.h5", edit)
        with pytest.raises(mb_saving.FileFormatError, match=message):
            _mb_net().load_weights(tmp_path / "bad.h5")
    (tmp_path / "junk.h5").write_bytes(b"not hdf5")
    with pytest.raises(mb_saving.FileFormatError, match="not a readable HDF5"):
        _mb_net().load_weights(tmp_path / "junk.h5")


def test_a_weight_pointing_outside_the_file_is_refused_unread(keras_files, tmp_path):
    secret = tmp_path / "secret.h5"
    with h5py.File(secret, "w") as f:
        f["data"] = np.full((5,), 7.0, "float32")

    def external(f):
        name = _text(f["head"].attrs["weight_names"][1])
        del f["head"][name]
        f["head"][name] = h5py.ExternalLink(str(secret), "data")

    _copy_with(keras_files / "weights.h5", tmp_path / "bad.h5", external)
    model = _mb_net()
    bias_before = model.get_layer("head").get_weights()[1].copy()
    with pytest.raises(mb_saving.UnsafeFileError, match="external link"):
        model.load_weights(tmp_path / "bad.h5")
    np.testing.assert_array_equal(model.get_layer("head").get_weights()[1], bias_before)


def _text(name):
    return name.decode() if isinstance(name, bytes) else name
