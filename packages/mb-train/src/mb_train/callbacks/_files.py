"""Callbacks that write files: CSVLogger, ModelCheckpoint, BackupAndRestore."""

import csv
import json
import os
import shutil
import zipfile

import numpy as np

from mb_train._atomic_files import atomic_file, remove_stale
from mb_train._trainer._distributed import is_chief, whole_state
from mb_train.callbacks._callback import Callback
from mb_train.callbacks._monitors import _get_monitor, _mode_op

_FRESH_DIR = (
    "A backup directory belongs to one training run: delete it, or give this run its own "
    "backup_dir."
)
_MISMATCH = (
    "The training backup '{path}' does not fit this model: it holds {saved} {group} "
    "variables, this model's {group} has {now}. " + _FRESH_DIR
)


def _atomic_write(path, write):
    """Writes through a temporary file in the same folder, then renames it into place
    (with the mode ``open(path, "w")`` would give; see `mb_train._atomic_files`)."""
    with atomic_file(path) as tmp:
        write(tmp)


def _training_variables(model):
    """``{"model": [...], "optimizer": [...]}``: the variables a resumed fit needs."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and not getattr(optimizer, "built", True):
        optimizer.build(model.trainable_variables)  # its variables exist before loading
    return {
        "model": list(model.variables),
        "optimizer": list(optimizer.variables) if optimizer is not None else [],
    }


def save_training_state(model, path):
    """The model's variables (weights, seed states) and its optimizer's (iterations,
    moments, EMA averages, ...) as one ``.npz``, written atomically."""
    arrays = {
        f"{group}.{i:05d}": np.asarray(v.numpy())
        for group, variables in _training_variables(model).items()
        for i, v in enumerate(variables)
    }

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)

    _atomic_write(path, write)


def load_training_state(model, path):
    """Assigns what `save_training_state` wrote; nothing is assigned unless all fits.

    Raises:
        OSError: the file cannot be read (missing, truncated, not an ``.npz``).
        ValueError: the file holds other variables than the model and optimizer have.
    """
    try:
        with np.load(path) as data:
            saved = {key: data[key] for key in data.files}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile) as error:
        raise OSError(f"Cannot read the training backup '{path}': {error}") from error
    assignments = []
    for group, variables in _training_variables(model).items():
        keys = sorted(
            (k for k in saved if k.startswith(f"{group}.")), key=lambda k: int(k.split(".")[1])
        )
        if len(keys) != len(variables):
            raise ValueError(
                _MISMATCH.format(path=path, group=group, saved=len(keys), now=len(variables))
            )
        for key, variable in zip(keys, variables, strict=True):
            value = saved[key]
            if tuple(value.shape) != tuple(variable.shape):
                raise ValueError(
                    f"The training backup '{path}' does not fit this model: {group} variable "
                    f"'{variable.path}' has shape {tuple(variable.shape)}, the backup "
                    f"{tuple(value.shape)}. {_FRESH_DIR}"
                )
            assignments.append((variable, value))
    for variable, value in assignments:
        variable.assign(value)


class CSVLogger(Callback):
    """Streams each epoch's logs to a CSV file (``epoch`` first, then sorted keys)."""

    _needs_batch_logs = False

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self._file, self._writer, self._keys = None, None, None
        self._write_header = True

    # Keras's public state: the open file, its csv writer, the columns (after `epoch`)
    # fixed by the first epoch's logs, and whether the header is still to be written.
    csv_file = property(lambda self: self._file, lambda self, v: setattr(self, "_file", v))
    writer = property(lambda self: self._writer, lambda self, v: setattr(self, "_writer", v))
    keys = property(lambda self: self._keys, lambda self, v: setattr(self, "_keys", v))
    append_header = property(
        lambda self: self._write_header, lambda self, v: setattr(self, "_write_header", v)
    )

    def on_train_begin(self, logs=None):
        self._file = None
        if not is_chief():  # in a run of several processes, process 0 writes the logs
            return
        exists = self.append and os.path.exists(self.filename)
        self._file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115
        self._writer, self._keys = None, None
        self._write_header = not exists

    def on_epoch_end(self, epoch, logs=None):
        if self._file is None:
            return
        logs = logs or {}
        if self._keys is None:
            self._keys = sorted(logs)
            # Keras's columns: without validation logs, the val_ columns come too (NA).
            if self._keys and not any(k.startswith("val_") for k in self._keys):
                self._keys += [f"val_{k}" for k in self._keys]
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
        self.mode = mode
        self.min_delta = 0  # Keras's: any improvement counts
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
        # In a run of several processes, process 0 writes the files (the others join
        # in gathering variables split over the processes).
        with whole_state(self.model):
            if not is_chief():
                return
            if self.save_weights_only:
                self.model.save_weights(path, overwrite=True)
            else:
                self.model.save(path, overwrite=True)
        if self.verbose > 0:
            what = "weights" if self.save_weights_only else "model"
            print(f"Epoch {epoch + 1}: saving {what} to {path}")


class BackupAndRestore(Callback):
    """Backs up the training state so that an interrupted `fit` resumes where it stopped.

    The state is the model's variables, the optimizer's (its iterations, moments and
    any EMA averages, so a resumed run takes the same steps as an uninterrupted
    one) and the epoch. When `fit` starts and a backup exists in `backup_dir`, the
    state is restored and training goes on from the backed-up epoch (Keras's
    ``training_metadata.json``: with batch-level backups, the epoch that was in
    progress starts again from the restored state).

    Args:
        backup_dir: a folder for this run's backup only (not shared with another
            run or callback).
        save_freq: ``"epoch"`` (back up after each epoch), a number of batches, or
            False (never back up on a schedule; only restore).
        double_checkpoint: keep the previous backup too, and restore it when the
            latest cannot be read (e.g. a crash while writing it).
        delete_checkpoint: delete the backup when `fit` ends normally.

    Example:

    >>> import tempfile
    >>> callback = BackupAndRestore(tempfile.mkdtemp(), save_freq=100)
    >>> callback.save_freq
    100
    """

    _needs_batch_logs = False

    def __init__(
        self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True
    ):
        super().__init__()
        if not backup_dir:
            raise ValueError(
                f"BackupAndRestore needs a backup_dir folder. Received: backup_dir={backup_dir!r}."
            )
        if not (
            save_freq == "epoch"
            or save_freq is False
            or (isinstance(save_freq, int) and not isinstance(save_freq, bool) and save_freq > 0)
        ):
            raise ValueError(
                "BackupAndRestore's save_freq must be 'epoch', a positive number of batches or "
                f"False. Received: save_freq={save_freq!r}."
            )
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.npz")
        self._metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._prev_weights_path = f"{self._weights_path}.bkp"
        self._prev_metadata_path = f"{self._metadata_path}.bkp"
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0

    # ----- restoring ------------------------------------------------------------------

    def on_train_begin(self, logs=None):
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        try:
            self._restore()
        except OSError:
            if not os.path.exists(self._prev_weights_path):
                raise
            # The latest backup is unreadable: go back to the one before it.
            shutil.copyfile(self._prev_weights_path, self._weights_path)
            if os.path.exists(self._prev_metadata_path):
                shutil.copyfile(self._prev_metadata_path, self._metadata_path)
            elif os.path.exists(self._metadata_path):
                os.remove(self._metadata_path)
            self._restore()

    def _restore(self):
        if not self.model.built:
            raise ValueError(
                "BackupAndRestore needs a built model to restore into. Model "
                f"'{self.model.name}' is not built: call it on a batch of data or call "
                "model.build(input_shape) before fit()."
            )
        if is_chief():  # every process restores; process 0 alone writes (and cleans up)
            remove_stale(self.backup_dir)  # temporaries of a backup that was killed
        if os.path.exists(self._weights_path):
            load_training_state(self.model, self._weights_path)
        if os.path.exists(self._metadata_path):
            try:
                with open(self._metadata_path) as f:
                    epoch = int(json.load(f)["epoch"])
            except (ValueError, KeyError, TypeError) as error:
                raise OSError(
                    f"Cannot read the training backup '{self._metadata_path}': {error}"
                ) from error
            self._current_epoch = epoch
            self.model._initial_epoch_override = epoch

    # ----- backing up -----------------------------------------------------------------

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._backup()

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._backup()

    def _should_save_on_batch(self, batch):
        # `batch` is the index of the last batch run (several with steps_per_execution).
        if self.save_freq == "epoch" or self.save_freq is False:
            return False
        if batch <= self._last_batch_seen:  # a new epoch
            added = batch + 1
        else:
            added = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _backup(self):
        with whole_state(self.model):  # every process gathers split variables
            if is_chief():
                self._write_backup()

    def _write_backup(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for latest, previous in (
                (self._weights_path, self._prev_weights_path),
                (self._metadata_path, self._prev_metadata_path),
            ):
                if os.path.exists(latest):
                    shutil.copyfile(latest, previous)
        save_training_state(self.model, self._weights_path)
        metadata = {"epoch": self._current_epoch, "batch": self._last_batch_seen}

        def write(tmp):
            with open(tmp, "w") as f:
                json.dump(metadata, f)

        _atomic_write(self._metadata_path, write)

    def on_train_end(self, logs=None):
        if not self.delete_checkpoint or not is_chief():
            return
        for path in (
            self._weights_path,
            self._metadata_path,
            self._prev_weights_path,
            self._prev_metadata_path,
        ):
            if os.path.exists(path):
                os.remove(path)
        # Keras removes the folder; one the user also put other files in is kept.
        if os.path.isdir(self.backup_dir) and not os.listdir(self.backup_dir):
            os.rmdir(self.backup_dir)
