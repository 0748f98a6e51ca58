"""BackupAndRestore, SwapEMAWeights and TensorBoard against what Keras 3.15 does."""

import collections
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys

import numpy as np
import pytest

import mb_layers
from mb_train import callbacks as cb
from mb_train import optimizers
from mb_train.callbacks._event_file import EventFileWriter
from mb_train.models import Sequential

# ----- shared pieces -------------------------------------------------------------------


def _data(n=32):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5]]) + 1.0).astype("float32")


def _model(optimizer, seed=0, metrics=None):
    model = Sequential(
        [mb_layers.Input((3,)), mb_layers.layers.Dense(4), mb_layers.layers.Dense(1)]
    )
    rng = np.random.default_rng(seed)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    model.compile(optimizer=optimizer, loss="mse", metrics=metrics)
    return model


def _iterations(model):
    return int(np.asarray(model.optimizer.iterations.numpy()))


class _Interrupt(Exception):
    """Stands in for a crash or preemption."""


class _InterruptAt(cb.Callback):
    """Raises at the start of `epoch` (and, when given, of its batch `batch`)."""

    def __init__(self, epoch, batch=None):
        super().__init__()
        self.epoch, self.batch, self._current = epoch, batch, None

    def on_epoch_begin(self, epoch, logs=None):
        self._current = epoch
        if epoch == self.epoch and self.batch is None:
            raise _Interrupt

    def on_train_batch_begin(self, batch, logs=None):
        if self._current == self.epoch and batch == self.batch:
            raise _Interrupt


def _assert_same_weights(got, want, rtol=1e-6, atol=1e-6):
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def _max_difference(a_list, b_list):
    return max(float(np.max(np.abs(a - b))) for a, b in zip(a_list, b_list, strict=True))


# ----- BackupAndRestore ----------------------------------------------------------------


def test_backup_and_restore_resumed_fit_matches_an_uninterrupted_one(tmp_path):
    x, y = _data()
    fit = {"batch_size": 8, "epochs": 5, "verbose": 0, "shuffle": False}

    reference = _model(optimizers.Adam(0.05))
    reference_history = reference.fit(x, y, **fit)

    backup_dir = tmp_path / "backup"
    crashed = _model(optimizers.Adam(0.05))
    with pytest.raises(_Interrupt):
        crashed.fit(x, y, callbacks=[cb.BackupAndRestore(backup_dir), _InterruptAt(2)], **fit)
    assert os.path.exists(backup_dir / "latest.weights.npz")
    backed_up = crashed.get_weights()

    # A new process would build the model afresh: other initial weights, a new Adam.
    resumed = _model(optimizers.Adam(0.05), seed=1)
    history = resumed.fit(x, y, callbacks=[cb.BackupAndRestore(backup_dir)], **fit)

    assert history.epoch == [2, 3, 4]
    np.testing.assert_allclose(
        history.history["loss"], reference_history.history["loss"][2:], rtol=1e-5
    )
    _assert_same_weights(resumed.get_weights(), reference.get_weights())
    assert _iterations(resumed) == _iterations(reference) == 5 * 4
    assert not os.path.exists(backup_dir)  # deleted after the finished fit

    # The moments matter here: the same weights with a fresh Adam end elsewhere.
    weights_only = _model(optimizers.Adam(0.05), seed=1)
    weights_only.set_weights(backed_up)
    weights_only.fit(x, y, initial_epoch=2, **fit)
    assert _max_difference(weights_only.get_weights(), reference.get_weights()) > 1e-3


def test_backup_and_restore_every_n_batches_restarts_the_interrupted_epoch(tmp_path):
    x, y = _data()  # 4 batches per epoch
    fit = {"batch_size": 8, "epochs": 3, "verbose": 0, "shuffle": False}
    backup_dir = tmp_path / "backup"
    model = _model(optimizers.Adam(0.05))
    seen = {}

    def record(batch, logs):
        seen[_iterations(model)] = model.get_weights()

    # Backups after batches 2, 4 (epoch 0) and 6 (batch 1 of epoch 1); the crash comes
    # at batch 2 of epoch 1, after 6 steps.
    with pytest.raises(_Interrupt):
        model.fit(
            x,
            y,
            callbacks=[
                cb.BackupAndRestore(backup_dir, save_freq=2),
                cb.LambdaCallback(on_train_batch_end=record),
                _InterruptAt(1, batch=2),
            ],
            **fit,
        )
    with open(backup_dir / "training_metadata.json") as f:
        assert json.load(f) == {"epoch": 1, "batch": 1}  # Keras's metadata

    resumed = _model(optimizers.Adam(0.05), seed=1)
    restored = {}

    def on_begin(logs):
        restored["weights"] = resumed.get_weights()
        restored["iterations"] = _iterations(resumed)

    history = resumed.fit(
        x,
        y,
        callbacks=[
            cb.BackupAndRestore(backup_dir, save_freq=2),
            cb.LambdaCallback(on_train_begin=on_begin),
        ],
        **fit,
    )
    assert restored["iterations"] == 6
    _assert_same_weights(restored["weights"], seen[6], rtol=0, atol=0)
    assert history.epoch == [1, 2]  # the interrupted epoch 1 runs again, in full
    assert _iterations(resumed) == 6 + 2 * 4


def test_backup_and_restore_double_checkpoint_falls_back_to_the_previous_backup(tmp_path):
    x, y = _data()
    fit = {"batch_size": 8, "epochs": 4, "verbose": 0, "shuffle": False}
    backup_dir = tmp_path / "backup"
    model = _model(optimizers.Adam(0.05))
    after_epoch = {}

    def record(epoch, logs):
        after_epoch[epoch] = model.get_weights()

    backup = cb.BackupAndRestore(backup_dir, double_checkpoint=True)
    with pytest.raises(_Interrupt):
        model.fit(
            x, y, callbacks=[backup, cb.LambdaCallback(on_epoch_end=record), _InterruptAt(3)], **fit
        )
    assert os.path.exists(backup_dir / "latest.weights.npz.bkp")
    assert os.path.exists(backup_dir / "training_metadata.json.bkp")
    (backup_dir / "latest.weights.npz").write_bytes(b"half-written")  # a crash mid-write

    resumed = _model(optimizers.Adam(0.05), seed=1)
    restored = {}
    history = resumed.fit(
        x,
        y,
        callbacks=[
            cb.BackupAndRestore(backup_dir, double_checkpoint=True),
            cb.LambdaCallback(on_train_begin=lambda logs: restored.update(w=resumed.get_weights())),
        ],
        **fit,
    )
    _assert_same_weights(restored["w"], after_epoch[1], rtol=0, atol=0)  # the one before
    assert history.epoch == [2, 3]


def test_backup_and_restore_reports_an_unreadable_backup_without_double_checkpoint(tmp_path):
    x, y = _data()
    backup_dir = tmp_path / "backup"
    backup_dir.mkdir()
    (backup_dir / "latest.weights.npz").write_bytes(b"half-written")
    model = _model(optimizers.Adam(0.05))
    with pytest.raises(OSError, match=r"latest\.weights\.npz"):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[cb.BackupAndRestore(backup_dir)])


def test_backup_and_restore_keeps_the_backup_with_delete_checkpoint_false(tmp_path):
    x, y = _data()
    backup_dir = tmp_path / "backup"
    model = _model(optimizers.Adam(0.05))
    model.fit(
        x,
        y,
        epochs=2,
        verbose=0,
        callbacks=[cb.BackupAndRestore(backup_dir, delete_checkpoint=False)],
    )
    assert sorted(os.listdir(backup_dir)) == ["latest.weights.npz", "training_metadata.json"]
    with open(backup_dir / "training_metadata.json") as f:
        assert json.load(f)["epoch"] == 2


def test_backup_and_restore_rejects_a_backup_of_another_model(tmp_path):
    x, y = _data()
    backup_dir = tmp_path / "backup"
    small = _model(optimizers.Adam(0.05))
    with pytest.raises(_Interrupt):
        small.fit(
            x, y, epochs=3, verbose=0, callbacks=[cb.BackupAndRestore(backup_dir), _InterruptAt(1)]
        )
    other = Sequential([mb_layers.Input((3,)), mb_layers.layers.Dense(1)])
    other.compile(optimizer=optimizers.Adam(0.05), loss="mse")
    before = other.get_weights()
    with pytest.raises(ValueError, match="backup_dir"):
        other.fit(x, y, epochs=3, verbose=0, callbacks=[cb.BackupAndRestore(backup_dir)])
    _assert_same_weights(other.get_weights(), before, rtol=0, atol=0)  # nothing assigned


@pytest.mark.parametrize("save_freq", [0, -3, "batch", 1.5, True])
def test_backup_and_restore_rejects_a_bad_save_freq(tmp_path, save_freq):
    with pytest.raises(ValueError, match="save_freq"):
        cb.BackupAndRestore(tmp_path, save_freq=save_freq)


# ----- SwapEMAWeights ------------------------------------------------------------------


def _ema_sgd(use_ema=True):
    return optimizers.SGD(0.1, use_ema=use_ema, ema_momentum=0.5)


def _stop_after(epoch, model):
    return cb.LambdaCallback(
        on_epoch_end=lambda e, logs: setattr(model, "stop_training", e == epoch)
    )


@pytest.mark.parametrize("stop_after", [None, 0])
def test_swap_ema_weights_on_epoch_leaves_the_ema_weights_after_fit(stop_after):
    x, y = _data()
    fit = {"batch_size": 8, "epochs": 3, "verbose": 0, "shuffle": False}

    def run(extra, use_ema=True):
        model = _model(_ema_sgd(use_ema))
        stops = [] if stop_after is None else [_stop_after(stop_after, model)]
        model.fit(x, y, callbacks=extra + stops, **fit)
        return model

    plain = run([])  # no callback: fit's end writes the averages into the model
    swapped = run([cb.SwapEMAWeights(swap_on_epoch=True)])
    raw = run([], use_ema=False)

    _assert_same_weights(swapped.get_weights(), plain.get_weights())
    averages = [v.numpy() for v in swapped.optimizer._model_variables_moving_average]
    _assert_same_weights(swapped.get_weights(), averages)
    assert _max_difference(swapped.get_weights(), raw.get_weights()) > 1e-3


def test_swap_ema_weights_on_epoch_shows_the_averages_to_later_callbacks_only():
    x, y = _data()
    model = _model(_ema_sgd())
    at_epoch_end, at_epoch_begin = {}, {}

    def on_end(epoch, logs):
        averages = [v.numpy() for v in model.optimizer._model_variables_moving_average]
        at_epoch_end[epoch] = (model.get_weights(), averages)

    probe = cb.LambdaCallback(
        on_epoch_end=on_end,
        on_epoch_begin=lambda epoch, logs: at_epoch_begin.update({epoch: model.get_weights()}),
    )
    reference = _model(_ema_sgd())
    reference_weights = {}
    reference.fit(
        x,
        y,
        batch_size=8,
        epochs=3,
        verbose=0,
        shuffle=False,
        callbacks=[
            cb.LambdaCallback(
                on_epoch_begin=lambda e, logs: reference_weights.update(
                    {e: reference.get_weights()}
                )
            )
        ],
    )
    model.fit(
        x,
        y,
        batch_size=8,
        epochs=3,
        verbose=0,
        shuffle=False,
        callbacks=[cb.SwapEMAWeights(swap_on_epoch=True), probe],
    )
    for epoch in range(3):
        weights, averages = at_epoch_end[epoch]
        _assert_same_weights(weights, averages)
    # Training itself goes on from the trained (not the averaged) weights.
    for epoch in (1, 2):
        _assert_same_weights(at_epoch_begin[epoch], reference_weights[epoch])


def test_swap_ema_weights_predicts_with_the_averages_and_puts_the_weights_back():
    x, y = _data()
    model = _model(_ema_sgd())
    model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
    for v in model.trainable_variables:  # make the live weights differ from the averages
        v.assign(v.numpy() + 1.0)
    live = model.get_weights()
    averages = [v.numpy() for v in model.optimizer._model_variables_moving_average]

    swapped = model.predict(x, verbose=0, callbacks=[cb.SwapEMAWeights()])

    _assert_same_weights(model.get_weights(), live, rtol=0, atol=0)
    model.set_weights(averages)
    np.testing.assert_allclose(swapped, model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)


# ----- TensorBoard ---------------------------------------------------------------------

_READ_EVENTS = r"""
import json, os, sys
import tensorflow as tf
root = sys.argv[1]
rows = []
for folder, _, names in sorted(os.walk(root)):
    for name in sorted(names):
        if not name.startswith("events.out.tfevents."):
            continue
        for event in tf.compat.v1.train.summary_iterator(os.path.join(folder, name)):
            for v in event.summary.value:
                plugin = v.metadata.plugin_data.plugin_name
                if v.WhichOneof("value") == "simple_value":
                    value = v.simple_value
                elif plugin == "scalars":
                    value = float(tf.make_ndarray(v.tensor))
                else:
                    value = tf.make_ndarray(v.tensor).item().decode()
                rows.append([os.path.relpath(folder, root), name, event.step, v.tag, plugin, value])
print(json.dumps(rows))
"""


def _read_events(log_dir):
    """``[(folder, file, step, tag, plugin, value)]``, read by TensorFlow's own reader."""
    result = subprocess.run(
        [sys.executable, "-c", _READ_EVENTS, str(log_dir)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return [tuple(row) for row in json.loads(result.stdout.strip().splitlines()[-1])]


# What Keras 3.15's TensorBoard(update_freq=2) writes (jax backend) for `_keras_scenario`:
# (folder, step, tag), one row per value written. Recorded from Keras itself; the
# test below re-derives it when tensorboard (which Keras's callback needs) is installed.
# Keras also writes the model's JSON under the tag "keras" (step 0, train) at each
# fit/evaluate; that tag is checked on its own.
_KERAS_3_15_ROWS = sorted(
    [("train", step, f"batch_{m}") for step in (2, 4, 6, 8) for m in ("loss", "mae")]
    + [("train", e, f"epoch_{m}") for e in (0, 1) for m in ("loss", "mae", "learning_rate")]
    + [("validation", e, f"epoch_{m}") for e in (0, 1) for m in ("loss", "mae")]
    + [("validation", s, f"evaluation_{m}_vs_iterations") for s in (4, 8) for m in ("loss", "mae")]
    # evaluate(callbacks=[tensorboard]) after 8 steps
    + [("validation", 8, f"evaluation_{m}_vs_iterations") for m in ("loss", "mae")]
    # fit(epochs=3, initial_epoch=2): the batch steps count from the call's start
    + [("train", step, f"batch_{m}") for step in (2, 4) for m in ("loss", "mae")]
    + [("train", 2, f"epoch_{m}") for m in ("loss", "mae", "learning_rate")]
)

_KERAS_SCENARIO = r"""
import os, sys
os.environ["KERAS_BACKEND"] = "jax"
import numpy as np
import keras
log_dir = sys.argv[1]
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 1.0).astype("float32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
tensorboard = keras.callbacks.TensorBoard(log_dir, update_freq=2)
fit = dict(batch_size=8, verbose=0, shuffle=False, callbacks=[tensorboard])
model.fit(x, y, epochs=2, validation_data=(x, y), **fit)
model.evaluate(x, y, batch_size=8, verbose=0, callbacks=[tensorboard])
model.fit(x, y, epochs=3, initial_epoch=2, **fit)
"""


def _mb_scenario(log_dir):
    """The same calls as `_KERAS_SCENARIO`, on mb."""
    x, y = _data()
    model = _model(optimizers.Adam(0.01), metrics=["mae"])
    tensorboard = cb.TensorBoard(log_dir, update_freq=2)
    fit = {"batch_size": 8, "verbose": 0, "shuffle": False, "callbacks": [tensorboard]}
    first = model.fit(x, y, epochs=2, validation_data=(x, y), **fit)
    evaluated = model.evaluate(x, y, batch_size=8, verbose=0, callbacks=[tensorboard])
    second = model.fit(x, y, epochs=3, initial_epoch=2, **fit)
    return first.history, evaluated, second.history


def _folder_step_tag(rows):
    return sorted((folder, step, tag) for folder, _, step, tag, _, _ in rows if tag != "keras")


def test_tensorboard_writes_the_tags_and_steps_keras_writes(tmp_path):
    first, evaluated, second = _mb_scenario(tmp_path)
    rows = _read_events(tmp_path)
    assert _folder_step_tag(rows) == _KERAS_3_15_ROWS

    def values(folder, tag):
        return [value for f, _, _, t, _, value in rows if f == folder and t == tag]

    np.testing.assert_allclose(
        values("train", "epoch_loss"), first["loss"] + second["loss"], rtol=1e-6
    )
    np.testing.assert_allclose(values("validation", "epoch_loss"), first["val_loss"], rtol=1e-6)
    np.testing.assert_allclose(
        values("validation", "evaluation_loss_vs_iterations"),
        [*first["val_loss"], evaluated[0]],
        rtol=1e-6,
    )
    np.testing.assert_allclose(values("train", "epoch_learning_rate"), [0.01] * 3, rtol=1e-6)
    # Every fit and evaluate writes its own files, named as TensorFlow names them.
    # (Files holding only the model's graph, written when mb-saving is loaded, aside.)
    scalar_files = {(r[0], r[1]) for r in rows if r[3] != "keras"}
    files = collections.Counter(folder for folder, _ in scalar_files)
    assert files == {"train": 2, "validation": 2}


@pytest.mark.skipif(
    importlib.util.find_spec("tensorboard") is None or importlib.util.find_spec("keras") is None,
    reason="Keras's TensorBoard callback needs the tensorboard package",
)
def test_the_recorded_keras_tags_are_what_keras_writes(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", _KERAS_SCENARIO, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = _read_events(tmp_path)
    assert _folder_step_tag(rows) == _KERAS_3_15_ROWS
    assert {(f, step) for f, _, step, tag, _, _ in rows if tag == "keras"} == {("train", 0)}


def test_tensorboard_writes_the_model_graph_keras_draws(tmp_path):
    mb_saving = pytest.importorskip("mb_saving")  # it writes the JSON that is drawn
    model = _model(optimizers.Adam(0.01))
    x, y = _data()
    model.fit(x, y, epochs=1, verbose=0, callbacks=[cb.TensorBoard(tmp_path)])
    rows = _read_events(tmp_path)
    (keras_row,) = [row for row in rows if row[3] == "keras"]
    folder, _, step, _, plugin, value = keras_row
    assert (folder, step, plugin) == ("train", 0, "graph_keras_model")
    assert json.loads(value) == json.loads(model.to_json())  # what Keras writes: the JSON
    revived = mb_saving.model_from_json(value)
    assert [layer.name for layer in revived.layers] == [layer.name for layer in model.layers]


def test_tensorboard_evaluation_steps_continue_across_a_resumed_fit(tmp_path):
    x, y = _data()  # 4 steps per epoch
    fit = {"batch_size": 8, "epochs": 4, "verbose": 0, "shuffle": False}
    backup_dir = tmp_path / "backup"
    model = _model(optimizers.Adam(0.05))
    with pytest.raises(_Interrupt):
        model.fit(
            x,
            y,
            validation_data=(x, y),
            callbacks=[
                cb.BackupAndRestore(backup_dir),
                cb.TensorBoard(tmp_path / "logs"),
                _InterruptAt(2),
            ],
            **fit,
        )
    resumed = _model(optimizers.Adam(0.05), seed=1)
    resumed.fit(
        x,
        y,
        validation_data=(x, y),
        callbacks=[cb.BackupAndRestore(backup_dir), cb.TensorBoard(tmp_path / "logs")],
        **fit,
    )
    rows = _read_events(tmp_path / "logs")
    steps = sorted(step for _, _, step, tag, _, _ in rows if tag == "evaluation_loss_vs_iterations")
    epochs = sorted(
        step for f, _, step, tag, _, _ in rows if f == "validation" and tag == "epoch_loss"
    )
    assert steps == [4, 8, 12, 16]
    assert epochs == [0, 1, 2, 3]


def test_event_files_of_one_second_do_not_collide(tmp_path):
    writers = [EventFileWriter(str(tmp_path)) for _ in range(3)]
    for i, writer in enumerate(writers):
        writer.add_scalars({"epoch_loss": float(i)}, step=0)
        writer.close()
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 3
    pattern = (
        rf"events\.out\.tfevents\.\d+\.{re.escape(socket.gethostname())}\.{os.getpid()}\.\d+\.v2"
    )
    assert all(re.fullmatch(pattern, name) for name in names)
    rows = _read_events(tmp_path)
    assert sorted(value for *_, value in rows) == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("update_freq", [0, -1, "step", 2.5])
def test_tensorboard_rejects_a_bad_update_freq(tmp_path, update_freq):
    with pytest.raises(ValueError, match="update_freq"):
        cb.TensorBoard(tmp_path, update_freq=update_freq)
