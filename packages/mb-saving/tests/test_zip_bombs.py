"""The bomb guard refuses bombs, not models: a limit on the expanded size tied to the model.

A model whose weights are mostly zeros compresses a thousandfold when re-zipped
with deflate, and loads; a member declaring far more than the model could
hold is refused from its header, without expanding it (peak memory checked
with tracemalloc).
"""

import tracemalloc
import zipfile

import mb_saving_fuzz as fuzz
import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_train import optimizers
from mb_train.models import Sequential

BOMB_BYTES = 640 * 2**20


def _zeros(member, size=BOMB_BYTES):
    chunk = bytes(2**20)
    for _ in range(size // len(chunk)):
        member.write(chunk)


@pytest.fixture(scope="module")
def zero_model(tmp_path_factory):
    """A fresh ``Dense(2048, kernel_initializer="zeros")`` with Adam's (zero) slots, saved
    by mb and re-zipped with deflate."""
    model = Sequential(
        [mb_layers.Input((512,)), layers.Dense(2048, kernel_initializer="zeros", name="z")],
        name="zeros",
    )
    model.compile(optimizers.Adam(), "mse")
    model.optimizer.build(model.trainable_variables)
    folder = tmp_path_factory.mktemp("zeros")
    model.save(folder / "stored.keras")
    (folder / "deflated.keras").write_bytes(fuzz.rezip((folder / "stored.keras").read_bytes()))
    return model, folder


def test_a_mostly_zero_model_rezipped_with_deflate_loads(zero_model):
    model, folder = zero_model
    with zipfile.ZipFile(folder / "deflated.keras") as archive:
        info = archive.getinfo("model.weights.h5")
    assert info.file_size > 12 * 2**20 and info.file_size > 500 * info.compress_size
    loaded = mb_saving.load_model(folder / "deflated.keras")
    x = np.ones((2, 512), "float32")
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert len(loaded.optimizer.variables) == len(model.optimizer.variables)
    model.load_weights(folder / "deflated.keras")
    assert mb_saving.inspect(folder / "deflated.keras")["parameters"] > 3 * 512 * 2048


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    model = Sequential([mb_layers.Input((4,)), layers.Dense(3, name="d")], name="small")
    path = tmp_path_factory.mktemp("small") / "m.keras"
    model.save(path)
    return model, path.read_bytes()


def _refused_without_the_memory(path, model):
    tracemalloc.start()
    try:
        for load in (mb_saving.load_model, model.load_weights, mb_saving.inspect):
            with pytest.raises(mb_saving.FileFormatError, match="zip bomb") as caught:
                load(path)
            assert f"to {BOMB_BYTES} bytes" in str(caught.value)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"{peak} bytes allocated: the member was expanded"


def test_a_640_mb_member_of_zeros_is_refused_without_expanding_it(small, tmp_path):
    model, data = small
    bomb = fuzz.rezip(data, replace={"model.weights.h5": _zeros})
    assert len(bomb) < 2**20  # 640 MB of zeros in well under a megabyte
    (tmp_path / "bomb.keras").write_bytes(bomb)
    _refused_without_the_memory(tmp_path / "bomb.keras", model)


def test_a_640_mb_member_declared_in_a_1_kb_file_is_refused_from_its_header(small, tmp_path):
    model, data = small
    bomb = fuzz.declare_size(
        fuzz.rezip(data, replace={"model.weights.h5": lambda f: f.write(bytes(256))}),
        "model.weights.h5",
        BOMB_BYTES,
    )
    (tmp_path / "bomb.keras").write_bytes(bomb)
    assert (tmp_path / "bomb.keras").stat().st_size < 2048
    _refused_without_the_memory(tmp_path / "bomb.keras", model)


def test_a_member_expanding_past_what_its_header_declares_is_not_expanded(small, tmp_path):
    _, data = small
    liar = fuzz.declare_size(
        fuzz.rezip(data, replace={"model.weights.h5": lambda f: _zeros(f, 64 * 2**20)}),
        "model.weights.h5",
        1024,
    )
    (tmp_path / "liar.keras").write_bytes(liar)
    tracemalloc.start()
    try:
        with pytest.raises(mb_saving.FileFormatError, match="damaged"):
            mb_saving.load_model(tmp_path / "liar.keras")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20


def test_the_ceiling_is_configurable_and_stored_members_do_not_expand(zero_model):
    _, folder = zero_model
    previous = mb_saving.get_max_expanded_bytes()
    mb_saving.set_max_expanded_bytes(2**20)
    try:
        with pytest.raises(mb_saving.FileFormatError, match="set_max_expanded_bytes"):
            mb_saving.load_model(folder / "deflated.keras")
        assert mb_saving.load_model(folder / "stored.keras").name == "zeros"
    finally:
        mb_saving.set_max_expanded_bytes(previous)
    with pytest.raises(ValueError, match="positive int"):
        mb_saving.set_max_expanded_bytes(0)
