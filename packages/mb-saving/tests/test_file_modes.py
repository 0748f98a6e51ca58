"""Saved files are readable by whom the umask says, and failed saves leave nothing behind."""

import os
import stat

import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_saving import _api
from mb_train.models import Sequential


@pytest.fixture(params=[0o022, 0o077])
def umask(request):
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def _model():
    return Sequential([mb_layers.Input((3,)), layers.Dense(2, name="d")], name="modes")


def test_every_saved_file_has_the_mode_open_gives_and_overwrites_keep_theirs(tmp_path, umask):
    with open(tmp_path / "reference", "w"):
        pass
    expected = _mode(tmp_path / "reference")
    assert expected == 0o666 & ~umask  # 0o644 under 022: another user can read it
    model = _model()
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "m.weights.h5")
    model.save_weights(tmp_path / "s.weights.json", max_shard_size=1e-7)
    model.save(tmp_path / "folder.keras", zipped=False)
    written = ["m.keras", "m.weights.h5", "s.weights.json", "s_00000.weights.h5"]
    for name in [*written, "folder.keras/config.json", "folder.keras/model.weights.h5"]:
        assert _mode(tmp_path / name) == expected, name
    assert _mode(tmp_path / "folder.keras") == 0o777 & ~umask
    for name in written:
        os.chmod(tmp_path / name, 0o640)
    os.chmod(tmp_path / "folder.keras", 0o750)
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "m.weights.h5")
    model.save_weights(tmp_path / "s.weights.json", max_shard_size=1e-7)
    model.save(tmp_path / "folder.keras", zipped=False)
    for name in written:
        assert _mode(tmp_path / name) == 0o640, name
    assert _mode(tmp_path / "folder.keras") == 0o750
    assert not [n for n in os.listdir(tmp_path) if ".mb-tmp-" in n]


def test_a_save_that_raises_removes_its_temporary_at_once(tmp_path, monkeypatch):
    model = _model()
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "s.weights.json", max_shard_size=1e-7)
    before = sorted(os.listdir(tmp_path))
    original = _api.write_archive

    def failing_write(target, *args, **kwargs):
        original(target, *args, **kwargs)  # the temporary is complete on disk
        raise OSError("No space left on device")

    monkeypatch.setattr(_api, "write_archive", failing_write)
    with pytest.raises(OSError, match="No space left"):
        model.save(tmp_path / "m.keras")

    class Failing(layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(2,))

        def call(self, x):
            return x

        def save_own_variables(self, store):
            store["0"] = self.w.numpy()
            raise OSError("No space left on device")

    broken = Sequential([mb_layers.Input((2,)), Failing()])
    with pytest.raises(OSError, match="No space left"):
        broken.save_weights(tmp_path / "s.weights.json", max_shard_size=1e-7)
    assert sorted(os.listdir(tmp_path)) == before
    assert mb_saving.load_model(tmp_path / "m.keras").name == "modes"
