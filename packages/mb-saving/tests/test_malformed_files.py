"""Damaged files give a clear error that names the file and the part, never a crash."""

import gzip
import io
import json
import os
import warnings
import zipfile

import h5py
import mb_saving_fuzz as fuzz
import numpy as np
import pytest
from mb_saving_helpers import read_config, rewrite_archive

import mb_layers
import mb_saving
from mb_layers import layers
from mb_saving import _archive
from mb_train import optimizers
from mb_train.models import Model, Sequential

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_corpus")
LOAD_ERRORS = (
    mb_saving.FileFormatError,
    mb_saving.UnsafeConfigError,
    mb_saving.DeserializationError,
    mb_saving.WeightsMismatchError,
)


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    folder = tmp_path_factory.mktemp("valid")
    model = Sequential([mb_layers.Input((4,)), layers.Dense(3, name="d")], name="small")
    model.save(folder / "m.keras")
    return folder / "m.keras"


@pytest.mark.parametrize("keep", [0, 30, 0.5, -22])
def test_truncated_file_is_a_format_error(valid, tmp_path, keep):
    data = valid.read_bytes()
    cut = int(len(data) * keep) if isinstance(keep, float) else keep % len(data)
    (tmp_path / "t.keras").write_bytes(data[:cut])
    with pytest.raises(mb_saving.FileFormatError, match=r"t.keras"):
        mb_saving.load_model(tmp_path / "t.keras")


def test_wrong_member_names_are_named(valid, tmp_path):
    with zipfile.ZipFile(valid) as archive:
        config = archive.read("config.json")
    rewrite_archive(
        valid, tmp_path / "a.keras", members={"config.jsn": config}, drop=["config.json"]
    )
    with pytest.raises(mb_saving.FileFormatError, match=r"unexpected member 'config.jsn'"):
        mb_saving.load_model(tmp_path / "a.keras")
    rewrite_archive(valid, tmp_path / "b.keras", drop=["model.weights.h5"])
    with pytest.raises(mb_saving.FileFormatError, match=r"'model.weights.h5' is missing"):
        mb_saving.load_model(tmp_path / "b.keras")


@pytest.mark.parametrize("name", ["../config.json", "/etc/passwd", "assets\\x"])
def test_unsafe_member_names_are_refused(valid, tmp_path, name):
    rewrite_archive(valid, tmp_path / "m.keras", members={name: b"x"})
    with pytest.raises(mb_saving.FileFormatError, match=r"unsafe member name|unexpected member"):
        mb_saving.load_model(tmp_path / "m.keras")


def test_duplicated_member_is_refused(valid, tmp_path):
    rewrite_archive(valid, tmp_path / "m.keras")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate it writes
        with zipfile.ZipFile(tmp_path / "m.keras", "a") as archive:
            archive.writestr("config.json", b"{}")
    with pytest.raises(mb_saving.FileFormatError, match="appears twice"):
        mb_saving.load_model(tmp_path / "m.keras")


def test_a_config_bomb_is_refused_from_its_header(valid, tmp_path):
    rewrite_archive(valid, tmp_path / "m.keras", drop=["config.json"])
    with zipfile.ZipFile(tmp_path / "m.keras", "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("config.json", b" " * (4 * 2**20))  # 4 MiB of spaces, ~4 KiB stored
    data = fuzz.declare_size((tmp_path / "m.keras").read_bytes(), "config.json", 2**31)
    (tmp_path / "m.keras").write_bytes(data)
    with pytest.raises(mb_saving.FileFormatError, match="declares 2147483648 bytes, more than"):
        mb_saving.load_model(tmp_path / "m.keras")


def test_oversized_member_is_refused_from_its_declared_size(valid, monkeypatch):
    monkeypatch.setitem(_archive._LIMITS, "config.json", 100)
    with pytest.raises(mb_saving.FileFormatError, match="more than the 100 bytes allowed"):
        mb_saving.load_model(valid)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[1, 2]", "must hold a JSON object"),
        (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
        (b'{"class_name": "Sequential"}', "no 'config'"),
    ],
)
def test_broken_config_json_is_named(valid, tmp_path, content, message):
    rewrite_archive(valid, tmp_path / "m.keras", members={"config.json": content})
    with pytest.raises(mb_saving.FileFormatError, match=message):
        mb_saving.load_model(tmp_path / "m.keras")


def test_weights_member_that_is_not_hdf5_is_named(valid, tmp_path):
    rewrite_archive(valid, tmp_path / "m.keras", members={"model.weights.h5": b"\x00" * 512})
    with pytest.raises(mb_saving.FileFormatError, match=r"model\.weights\.h5.*HDF5"):
        mb_saving.load_model(tmp_path / "m.keras")


def _weights_with(build):
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        build(f)
    return buffer.getvalue()


def test_hdf5_shapes_that_disagree_with_the_config_name_the_layer(valid, tmp_path):
    def build(f):
        f.create_group("layers/dense/vars").attrs["name"] = "d"
        f["layers/dense/vars/0"] = np.zeros((4, 5), "float32")
        f["layers/dense/vars/1"] = np.zeros((5,), "float32")

    rewrite_archive(valid, tmp_path / "m.keras", members={"model.weights.h5": _weights_with(build)})
    with pytest.raises(mb_saving.WeightsMismatchError) as caught:
        mb_saving.load_model(tmp_path / "m.keras")
    assert "'layers/dense' (layer 'd' (Dense))" in str(caught.value)
    assert "is (4, 3) float32 in the model, but 'layers/dense/vars/0' in the file is (4, 5)" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("dataset", "message"),
    [
        (lambda g: g.create_group("0"), "should be a dataset"),
        (lambda g: g.create_dataset("0", data=np.array([b"ab"] * 3)), "type mb cannot read"),
    ],
)
def test_hdf5_members_of_the_wrong_kind_are_format_errors(valid, tmp_path, dataset, message):
    def build(f):
        dataset(f.create_group("layers/dense/vars"))

    rewrite_archive(valid, tmp_path / "m.keras", members={"model.weights.h5": _weights_with(build)})
    with pytest.raises(mb_saving.FileFormatError, match=message):
        mb_saving.load_model(tmp_path / "m.keras")


def test_a_layer_config_with_a_bad_value_names_its_path(valid, tmp_path):
    config = read_config(valid)
    config["config"]["layers"][1]["config"]["units"] = "three"
    rewrite_archive(valid, tmp_path / "m.keras", config=config)
    with pytest.raises(
        mb_saving.DeserializationError,
        match=r"config\.config\.layers\[1\]: could not create 'd' \(Dense\)",
    ):
        mb_saving.load_model(tmp_path / "m.keras")


def test_a_config_whose_recorded_shapes_disagree_is_refused(tmp_path):
    x = mb_layers.Input((4,), name="x")
    folded = layers.Reshape((3, 2), name="fold")(layers.Dense(6, name="body")(x))
    model = Model(x, layers.Dense(2, name="head")(layers.Flatten(name="flat")(folded)))
    model.save(tmp_path / "m.keras")
    config = read_config(tmp_path / "m.keras")
    fold = next(e for e in config["config"]["layers"] if e["name"] == "fold")
    fold["config"]["target_shape"] = [2, 3]  # every layer still accepts its input
    rewrite_archive(tmp_path / "m.keras", tmp_path / "bad.keras", config=config)
    with pytest.raises(mb_saving.DeserializationError, match="inconsistent") as caught:
        mb_saving.load_model(tmp_path / "bad.keras")
    assert "'flat'" in str(caught.value) and "(None, 3, 2)" in str(caught.value)


def test_a_layer_fed_the_wrong_shape_by_an_edited_config_names_it(tmp_path):
    x = mb_layers.Input((4,), name="x")
    model = Model(x, layers.Dense(2, name="head")(layers.Dense(3, name="body")(x)))
    model.save(tmp_path / "m.keras")
    config = read_config(tmp_path / "m.keras")
    body = next(e for e in config["config"]["layers"] if e["name"] == "body")
    body["config"]["units"] = 5  # the head was built for 3 features
    rewrite_archive(tmp_path / "m.keras", tmp_path / "bad.keras", config=config)
    with pytest.raises(mb_saving.DeserializationError, match=r"'head'.*received input with shape"):
        mb_saving.load_model(tmp_path / "bad.keras")


@pytest.fixture(scope="module")
def fuzz_base(tmp_path_factory):
    """A compiled model with an RNN wrapper, a nested network and several merges."""
    x = mb_layers.Input((4,), name="x")
    h = layers.Dense(5, activation="relu", name="h")(x)
    r = layers.Bidirectional(layers.GRU(2))(layers.Reshape((5, 1))(h))
    inner = Sequential([layers.Dense(3), layers.BatchNormalization()], name="inner")
    merged = layers.Concatenate()([inner(h), layers.Dense(2, name="g")(x), r])
    model = Model(x, layers.Dense(3, name="out")(merged), name="fz")
    model.compile(optimizers.Adam(), "mse", metrics=["mae"])
    model.fit(np.ones((4, 4), "float32"), np.ones((4, 3), "float32"), verbose=0)
    path = tmp_path_factory.mktemp("fuzz") / "base.keras"
    model.save(path)
    return path.read_bytes()


def test_fuzzed_files_load_completely_or_fail_with_a_saving_error(fuzz_base, tmp_path):
    budget, seed = 240, 20261203
    outcomes, unexpected = {}, []
    for index in range(budget):
        path = tmp_path / f"mutant_{index}.keras"
        path.write_bytes(fuzz.mutant(fuzz_base, seed, index))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. an optimizer state that does not fit
                model = mb_saving.load_model(path)
        except LOAD_ERRORS as error:
            outcomes[type(error).__name__] = outcomes.get(type(error).__name__, 0) + 1
        except Exception as error:
            unexpected.append(f"mutant {index}: {type(error).__name__}: {error}"[:400])
        else:
            assert isinstance(model, mb_layers.Layer) and model.built
            outcomes["loaded"] = outcomes.get("loaded", 0) + 1
        path.unlink()
    assert not unexpected, "\n".join(unexpected)
    assert outcomes.get("FileFormatError", 0) > budget // 4  # the mutations reach the guards


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("h5_unreadable_float_type", "has a type mb cannot read"),
        ("h5_float128_dataset", "has a type mb cannot read"),
        ("h5_external_storage", r"'layers/dense/vars/0' stores its values in '/etc/passwd'"),
        ("h5_external_link", r"'layers/dense/vars/0' is an external link to '/data' in file"),
        ("h5_virtual_dataset", r"'layers/dense/vars/0' is a virtual dataset reading 'data'"),
        ("h5_soft_link_outside", r"'layers/dense/vars/0' is a soft link to '/stash'"),
    ],
)
def test_fuzz_findings_stay_fixed(tmp_path, name, message):
    with gzip.open(os.path.join(CORPUS, f"{name}.keras.gz")) as f:
        (tmp_path / "m.keras").write_bytes(f.read())
    with pytest.raises(mb_saving.FileFormatError, match=message):
        mb_saving.load_model(tmp_path / "m.keras")


def test_fuzzed_entries_pointing_outside_are_always_refused(fuzz_base, tmp_path):
    with (
        zipfile.ZipFile(io.BytesIO(fuzz_base)) as archive,
        h5py.File(io.BytesIO(archive.read("model.weights.h5")), "r") as f,
    ):
        datasets = []
        f.visititems(lambda n, o: datasets.append(n) if isinstance(o, h5py.Dataset) else None)
    rng = np.random.default_rng(20261204)
    targets = ["/etc/passwd", "/dev/zero", "relative.h5", "/no/such/file.h5"]
    for index in range(12):
        kind = fuzz.REACHING_OUT[index % len(fuzz.REACHING_OUT)]
        dataset = str(rng.choice(datasets))
        target = "/stash" if kind == "soft link" else str(rng.choice(targets))
        path = tmp_path / f"outside_{index}.keras"
        path.write_bytes(fuzz.reaching_out_archive(fuzz_base, kind, target, dataset))
        with pytest.raises(mb_saving.UnsafeFileError) as caught:
            mb_saving.load_model(path)
        assert [(f.path, f.kind) for f in caught.value.findings] == [(dataset, kind)]


def test_fuzz_finding_bidirectional_with_inconsistent_layers_is_refused(tmp_path):
    with gzip.open(os.path.join(CORPUS, "bidirectional_return_sequences_string.keras.gz")) as f:
        (tmp_path / "m.keras").write_bytes(f.read())
    with pytest.raises(LOAD_ERRORS):
        mb_saving.load_model(tmp_path / "m.keras")


def test_metadata_json_is_optional_but_checked_when_present(valid, tmp_path):
    rewrite_archive(valid, tmp_path / "a.keras", drop=["metadata.json"])
    assert mb_saving.load_model(tmp_path / "a.keras").name == "small"
    rewrite_archive(valid, tmp_path / "b.keras", members={"metadata.json": b"{"})
    with pytest.raises(mb_saving.FileFormatError, match=r"metadata.json"):
        mb_saving.load_model(tmp_path / "b.keras")
    assert json.loads(zipfile.ZipFile(valid).read("metadata.json"))["mb"]["format"] == 1
