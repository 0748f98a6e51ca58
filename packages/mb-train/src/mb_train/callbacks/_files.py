"""Callbacks that write files: CSVLogger, ModelCheckpoint, BackupAndRestore."""

import csv
import json
import os
import tempfile

import numpy as np

from mb_train.callbacks._callback import Callback
from mb_train.callbacks._monitors import _get_monitor, _mode_op


def _atomic_write(path, write):
    """Writes through a temporary file in the same folder, then renames it into place."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def save_weights_file(model, path):
    """The model's variables (weights and, for training state, any list) as ``.npz``."""

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez(f, **{f"{i:04d}": w for i, w in enumerate(model.get_weights())})

    _atomic_write(path, write)


def load_weights_file(model, path):
    with np.load(path) as data:
        model.set_weights([data[k] for k in sorted(data.files)])


class CSVLogger(Callback):
    """Streams each epoch's logs to a CSV file (``epoch`` first, then sorted keys)."""

    _needs_batch_logs = False

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self._file, self._writer, self._keys = None, None, None

    def on_train_begin(self, logs=None):
        exists = self.append and os.path.exists(self.filename)
        self._file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115
        self._writer, self._keys = None, None
        self._write_header = not exists

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._keys is None:
            self._keys = sorted(logs)
            self._writer = csv.DictWriter(
                self._file, fieldnames=["epoch", *self._keys], delimiter=self.sep
            )
            if self._write_header:
                self._writer.writeheader()
        row = {"epoch": epoch, **{k: logs.get(k, "NA") for k in self._keys}}
        self._writer.writerow(row)
        self._file.flush()

    def on_train_end(self, logs=None):
        if self._file is not None:
            self._file.close()
            self._file = None


class ModelCheckpoint(Callback):
    """Saves the model (or its weights) at the end of epochs, or every `save_freq` batches.

    As in Keras: with ``save_weights_only=True`` the path ends in ``.weights.h5``
    and ``model.save_weights`` writes it, else it ends in ``.keras`` and
    ``model.save`` writes the whole model (config, weights, optimizer state).
    Both go through mb-saving, which writes a temporary file and renames it, so a
    crash never leaves a half-written checkpoint. `filepath` may hold ``{epoch}``
    and log keys, e.g. ``"ckpt-{epoch:02d}-{val_loss:.2f}.keras"``.
    """

    _needs_batch_logs = True

    def __init__(
        self,
        filepath,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        save_weights_only=False,
        mode="auto",
        save_freq="epoch",
        initial_value_threshold=None,
    ):
        super().__init__()
        filepath = os.fspath(filepath)
        if save_weights_only and not filepath.endswith(".weights.h5"):
            raise ValueError(
                "With save_weights_only=True, ModelCheckpoint's filepath must end in "
                f"'.weights.h5' (the Keras weights format). Received: filepath={filepath!r}."
            )
        if not save_weights_only and not filepath.endswith(".keras"):
            raise ValueError(
                "ModelCheckpoint's filepath must end in '.keras' (the Keras model format), or "
                "pass save_weights_only=True with a '.weights.h5' path. Received: "
                f"filepath={filepath!r}."
            )
        self.save_weights_only = save_weights_only
        if save_freq != "epoch" and not (isinstance(save_freq, int) and save_freq > 0):
            raise ValueError(f"`save_freq` must be 'epoch' or a positive int. Got {save_freq!r}.")
        self.filepath, self.monitor, self.verbose = os.fspath(filepath), monitor, verbose
        self.save_best_only, self.save_freq = save_best_only, save_freq
        self.monitor_op = _mode_op(mode, monitor)
        self.best = initial_value_threshold
        self._batches = 0
        self._epoch = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._batches += 1
        if self._batches % self.save_freq == 0:
            self._save(self._epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, logs)

    def _save(self, epoch, logs):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            value = _get_monitor(logs, self.monitor, "ModelCheckpoint")
            if value is None:
                return
            if self.best is not None and not self.monitor_op(value, self.best):
                return
            self.best = value
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)
        if self.verbose > 0:
            what = "weights" if self.save_weights_only else "model"
            print(f"Epoch {epoch + 1}: saving {what} to {path}")


class BackupAndRestore(Callback):
    """Backs up weights (and the epoch) so an interrupted `fit` resumes where it stopped.

    The backup is deleted when training finishes normally.
    """

    _needs_batch_logs = False

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint
        self._weights = os.path.join(self.backup_dir, "latest.weights.npz")
        self._meta = os.path.join(self.backup_dir, "training_metadata.json")
        self._batches = 0
        self._epoch = 0

    def on_train_begin(self, logs=None):
        if os.path.exists(self._weights) and os.path.exists(self._meta):
            load_weights_file(self.model, self._weights)
            with open(self._meta) as f:
                meta = json.load(f)
            self._initial_epoch = meta["epoch"] + 1
            self.model._initial_epoch_override = self._initial_epoch

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch

    def _backup(self, epoch):
        save_weights_file(self.model, self._weights)

        def write(tmp):
            with open(tmp, "w") as f:
                json.dump({"epoch": epoch}, f)

        _atomic_write(self._meta, write)

    def on_train_batch_end(self, batch, logs=None):
        if isinstance(self.save_freq, int):
            self._batches += 1
            if self._batches % self.save_freq == 0:
                self._backup(self._epoch - 1)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._backup(epoch)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint:
            for path in (self._weights, self._meta):
                if os.path.exists(path):
                    os.remove(path)
