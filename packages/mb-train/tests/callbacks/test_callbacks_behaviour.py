"""Callbacks against what they must do to a real fit on jax."""

import csv
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_ops import ops
from mb_train import callbacks as cb
from mb_train import optimizers
from mb_train.models import Model


def _model(builtins, lr=0.05):
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    model.compile(optimizer=builtins["sgd"](lr), loss=builtins["mse"]())
    return model


def _data(n=32):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.ones((3, 1)) + 1.0).astype("float32")


def test_early_stopping_stops_when_no_improvement(builtins):
    x, y = _data()
    model = _model(builtins)
    stop = cb.EarlyStopping(monitor="loss", min_delta=1e9, patience=1)
    history = model.fit(x, y, epochs=10, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) == 2
    assert stop.stopped_epoch == 1


def test_early_stopping_restores_best_weights(builtins):
    x, y = _data()
    model = _model(builtins, lr=0.0)
    seen = {}

    def record(epoch, logs):
        seen[epoch] = model.get_weights()
        for w in model.weights:  # make every later epoch worse
            w.assign(w.numpy() + 10.0)

    stop = cb.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    model.fit(x, y, epochs=5, verbose=0, callbacks=[stop, cb.LambdaCallback(on_epoch_end=record)])
    for a, b in zip(model.get_weights(), seen[0], strict=True):
        np.testing.assert_allclose(a, b)


def test_reduce_lr_on_plateau_multiplies_the_learning_rate(builtins):
    x, y = _data()
    model = _model(builtins, lr=0.01)
    model.fit(
        x,
        y,
        epochs=3,
        verbose=0,
        callbacks=[cb.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=1e9)],
    )
    np.testing.assert_allclose(model.optimizer.learning_rate.numpy(), 0.01 * 0.5 * 0.5, rtol=1e-6)


def test_learning_rate_scheduler_sets_each_epoch(builtins):
    x, y = _data()
    model = _model(builtins)
    history = model.fit(
        x,
        y,
        epochs=3,
        verbose=0,
        callbacks=[cb.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1))],
    )
    np.testing.assert_allclose(history.history["learning_rate"], [0.1, 0.05, 0.1 / 3], rtol=1e-6)


def test_csv_logger_writes_the_history(builtins, tmp_path):
    x, y = _data()
    model = _model(builtins)
    path = tmp_path / "log.csv"
    history = model.fit(x, y, epochs=3, verbose=0, callbacks=[cb.CSVLogger(path)])
    with open(path) as f:
        rows = list(csv.DictReader(f))
    assert [int(r["epoch"]) for r in rows] == [0, 1, 2]
    np.testing.assert_allclose([float(r["loss"]) for r in rows], history.history["loss"], rtol=1e-6)


def _nan_loss(y_true, y_pred):
    return ops.log(ops.mean(y_pred * 0.0 - 1.0, axis=-1))


def test_terminate_on_nan_stops_or_raises(builtins):
    x, y = _data()
    model = _model(builtins)
    model.compile(optimizer=builtins["sgd"](0.1), loss=_nan_loss)
    batches = []
    model.fit(
        x,
        y,
        batch_size=8,
        epochs=3,
        verbose=0,
        callbacks=[
            cb.TerminateOnNaN(),
            cb.LambdaCallback(on_train_batch_end=lambda b, l: batches.append(b)),
        ],
    )
    assert batches == [0]
    with pytest.raises(RuntimeError, match="batch 0"):
        model.fit(x, y, batch_size=8, verbose=0, callbacks=[cb.TerminateOnNaN(raise_error=True)])


def test_model_checkpoint_writes_loadable_weights_per_epoch(builtins, tmp_path):
    x, y = _data()
    model = _model(builtins)
    weights = []
    path = str(tmp_path / "ckpt-{epoch:02d}.weights.h5")
    model.fit(
        x,
        y,
        epochs=2,
        verbose=0,
        callbacks=[
            cb.ModelCheckpoint(path, save_weights_only=True),
            cb.LambdaCallback(on_epoch_end=lambda e, l: weights.append(model.get_weights())),
        ],
    )
    assert sorted(os.listdir(tmp_path)) == ["ckpt-01.weights.h5", "ckpt-02.weights.h5"]
    fresh = _model(builtins)
    fresh.load_weights(tmp_path / "ckpt-01.weights.h5")
    for a, b in zip(fresh.get_weights(), weights[0], strict=True):
        np.testing.assert_array_equal(a, b)


def test_model_checkpoint_saves_whole_models_as_keras_files(tmp_path):
    x, y = _data()
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    model.compile(optimizer=optimizers.SGD(0.05, momentum=0.9), loss="mse")
    path = str(tmp_path / "best.keras")
    checkpoint = cb.ModelCheckpoint(path, monitor="loss", save_best_only=True)
    model.fit(x, y, epochs=3, verbose=0, callbacks=[checkpoint])
    loaded = mb_saving.load_model(path)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert int(loaded.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy())


@pytest.mark.parametrize(
    ("filepath", "weights_only", "message"),
    [("m.weights.npz", True, "'.weights.h5'"), ("m.h5", False, "'.keras'")],
)
def test_model_checkpoint_checks_the_extension_like_keras(filepath, weights_only, message):
    with pytest.raises(ValueError, match=message):
        cb.ModelCheckpoint(filepath, save_weights_only=weights_only)


def test_backup_and_restore_resumes_after_an_interruption(builtins, tmp_path):
    x, y = _data()
    model = _model(builtins)

    class Crash(cb.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise KeyboardInterrupt

    backup = cb.BackupAndRestore(tmp_path / "backup")
    with pytest.raises(KeyboardInterrupt):
        model.fit(x, y, epochs=4, verbose=0, callbacks=[backup, Crash()])
    saved = model.get_weights()
    fresh = _model(builtins)
    history = fresh.fit(
        x, y, epochs=4, verbose=0, callbacks=[cb.BackupAndRestore(tmp_path / "backup")]
    )
    assert history.epoch == [2, 3]
    assert not os.path.exists(tmp_path / "backup" / "latest.weights.npz")
    del saved


def test_progbar_prints_one_line_per_epoch_off_a_terminal(builtins):
    x, y = _data()
    model = _model(builtins)
    out = io.StringIO()
    model.fit(x, y, epochs=2, verbose=2, callbacks=[cb.ProgbarLogger._writing_to(out)])
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("Epoch 1/2 - 1 steps") and "loss:" in lines[0]


def test_tensorboard_event_files_are_read_by_tensorflow(builtins, tmp_path):
    x, y = _data()
    model = _model(builtins)
    history = model.fit(
        x, y, epochs=2, verbose=0, validation_data=(x, y), callbacks=[cb.TensorBoard(tmp_path)]
    )
    train_dir = tmp_path / "train"
    (event_file,) = os.listdir(train_dir)
    code = (
        "import sys, tensorflow as tf\n"
        "for e in tf.compat.v1.train.summary_iterator(sys.argv[1]):\n"
        "    for v in e.summary.value: print(e.step, v.tag, v.simple_value)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(train_dir / event_file)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = [line.split() for line in result.stdout.strip().splitlines()]
    losses = [float(v) for step, tag, v in rows if tag == "epoch_loss"]
    np.testing.assert_allclose(losses, history.history["loss"], rtol=1e-6)
    assert os.listdir(tmp_path / "validation")


def test_tensorboard_summary_is_tensorflows_summary_module(tmp_path):
    code = (
        "import sys, tensorflow as tf\n"
        "from mb_train import callbacks as cb\n"
        "callback = cb.TensorBoard(sys.argv[1])\n"
        "print(callback.summary is tf.summary, callable(callback.summary.scalar))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "True"]


def test_tensorboard_summary_without_tensorflow_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tensorflow", None)
    monkeypatch.setitem(sys.modules, "tensorflow.summary", None)
    with pytest.raises(ImportError, match="pip install tensorflow"):
        _ = cb.TensorBoard(tmp_path).summary
