"""The public state of EarlyStopping, ReduceLROnPlateau, ModelCheckpoint, CSVLogger,
ProgbarLogger and TensorBoard, as Keras 3 keeps it: read at construction and after a
short `fit`, on mb (jax) and on Keras 3 (a subprocess, KERAS_BACKEND=jax)."""

import importlib.util
import inspect
import json
import os

import numpy as np
import pytest

import mb_layers
from mb_ops import testing
from mb_train import callbacks, optimizers
from mb_train.models import Sequential

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)


def state(k, folder):
    """What the callbacks hold, for `k` = a namespace with keras's names (JSON-able)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]])).astype("float32")
    model = k.Sequential([k.Input((3,)), k.layers.Dense(1)])
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    # A rate so large that the loss grows: the monitors see no improvement.
    model.compile(optimizer=k.optimizers.SGD(2.0), loss="mse")
    early = k.callbacks.EarlyStopping(monitor="loss", patience=2, mode="min")
    plateau = k.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, cooldown=3)
    csv = k.callbacks.CSVLogger(os.path.join(folder, "log.csv"))
    progbar = k.callbacks.ProgbarLogger()
    checkpoint = k.callbacks.ModelCheckpoint(os.path.join(folder, "m.keras"), mode="max")
    board = k.callbacks.TensorBoard(
        os.path.join(folder, "tb"),
        histogram_freq=2,
        write_images=True,
        embeddings_freq=3,
        embeddings_metadata={"e": "meta.tsv"},
    )
    out = {
        "early_init": [early.mode, early.wait, early.best, early.best_weights],
        "plateau_init": [plateau.mode, plateau.in_cooldown()],
        "csv_init": [csv.keys, csv.writer, csv.csv_file, csv.append_header],
        "progbar_init": [
            progbar.seen,
            progbar.progbar,
            progbar.target,
            progbar.verbose,
            progbar.epochs,
        ],
        "checkpoint": [checkpoint.mode, checkpoint.min_delta],
        "tensorboard": [
            board.histogram_freq,
            board.write_images,
            board.embeddings_freq,
            board.embeddings_metadata,
        ],
    }
    history = model.fit(
        x, y, batch_size=8, epochs=6, verbose=0, shuffle=False, callbacks=[early, plateau, csv]
    )
    out["epochs_run"] = len(history.history["loss"])
    out["early_after"] = [early.wait, float(early.best), early.stopped_epoch]
    out["early_monitor_value"] = float(early.get_monitor_value({"loss": 1.5}))
    out["plateau_after"] = [plateau.wait, plateau.cooldown_counter, plateau.in_cooldown()]
    out["csv_after"] = [list(csv.keys), csv.append_header]
    return out


_KERAS_MAIN = """
import json, sys, os
import numpy as np
import keras
print(json.dumps(state(keras, sys.argv[1]), default=repr))
"""


class _Namespace:
    Sequential = Sequential
    Input = mb_layers.Input
    layers = mb_layers.layers
    optimizers = optimizers
    callbacks = callbacks


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keras")
    theirs = testing.keras_json(inspect.getsource(state) + _KERAS_MAIN, str(folder))
    ours = json.loads(
        json.dumps(state(_Namespace, str(tmp_path_factory.mktemp("mb"))), default=repr)
    )
    return ours, theirs


@pytest.mark.parametrize(
    "key",
    [
        "early_init",
        "plateau_init",
        "csv_init",
        "progbar_init",
        "checkpoint",
        "tensorboard",
        "epochs_run",
        "early_monitor_value",
        "plateau_after",
        "csv_after",
    ],
)
def test_callback_state_matches_keras(key, reports):
    ours, theirs = reports
    assert ours[key] == theirs[key]


def test_early_stopping_state_after_fit_matches_keras(reports):
    ours, theirs = reports
    assert ours["early_after"][0] == theirs["early_after"][0]
    assert ours["early_after"][2] == theirs["early_after"][2]
    np.testing.assert_allclose(ours["early_after"][1], theirs["early_after"][1], rtol=1e-5)


def test_reduce_lr_on_plateau_refuses_unknown_arguments():
    with pytest.raises(TypeError, match=r"unexpected arguments: \['epsilon'\]"):
        callbacks.ReduceLROnPlateau(epsilon=1e-3)
