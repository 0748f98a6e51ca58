"""Files the callbacks write have the mode the umask gives; a killed backup's temporary goes."""

import os
import stat

import numpy as np

import mb_layers
import mb_saving  # noqa: F401  (connects Model.save for ModelCheckpoint)
from mb_train import _atomic_files
from mb_train import callbacks as cb
from mb_train.models import Model


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def _fit(folder, callbacks):
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((8, 3), "float32")
    model.fit(x, x[:, :1], epochs=2, batch_size=4, verbose=0, callbacks=callbacks)
    return model


def test_checkpoints_and_backups_get_the_mode_open_would_give(tmp_path, umask):
    expected = 0o666 & ~umask
    backup = tmp_path / "backup"
    _fit(
        tmp_path,
        [
            cb.ModelCheckpoint(str(tmp_path / "w-{epoch}.weights.h5"), save_weights_only=True),
            cb.ModelCheckpoint(str(tmp_path / "m.keras")),
            cb.BackupAndRestore(backup, delete_checkpoint=False, double_checkpoint=True),
        ],
    )
    written = ["w-1.weights.h5", "w-2.weights.h5", "m.keras"]
    written += [f"backup/{name}" for name in os.listdir(backup)]
    assert len(written) == 7  # latest + previous weights and metadata
    for name in written:
        assert _mode(tmp_path / name) == expected, name
    os.chmod(tmp_path / "m.keras", 0o640)
    _fit(tmp_path, [cb.ModelCheckpoint(str(tmp_path / "m.keras"))])
    assert _mode(tmp_path / "m.keras") == 0o640  # an overwrite keeps the file's mode
    assert not [n for n in os.listdir(tmp_path) + os.listdir(backup) if ".mb-tmp-" in n]


def test_a_restore_removes_the_temporary_of_a_killed_backup(tmp_path):
    backup = tmp_path / "backup"
    backup.mkdir()
    dead = _atomic_files.temporary_name(backup / "latest.weights.npz").replace(
        f"-{os.getpid()}-", "-999999999-"
    )
    with open(dead, "wb") as f:
        f.write(b"half a backup")
    _fit(tmp_path, [cb.BackupAndRestore(backup)])
    assert not os.path.exists(backup)  # the backup finished and was deleted, stale one too
