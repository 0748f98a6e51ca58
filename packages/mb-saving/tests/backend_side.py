"""One backend's half of the cross-backend tests, run in a subprocess with MB_BACKEND set.

``python backend_side.py train PATH`` trains a small conv + LSTM model with
Adam for a few steps, saves it to PATH, trains one more epoch and records the
weights reached (``PATH.npz``). ``python backend_side.py resume PATH`` loads
PATH on this process's backend, records its predictions and, on a backend
that can train, the weights after the same extra epoch (``PATH.<backend>.npz``).
``python backend_side.py slow-save PATH`` saves a model, then starts a second
save that stalls in the middle of writing the zip (the test kills it there).
"""

import os
import sys
import time
import zipfile

import numpy as np

import mb_layers
import mb_saving
from mb_layers import layers
from mb_ops import backends, config
from mb_train import optimizers
from mb_train.models import Sequential


def data():
    rng = np.random.default_rng(5)
    return rng.normal(size=(12, 6, 3)).astype("float32"), rng.integers(0, 2, size=(12,))


def build():
    model = Sequential(
        [
            mb_layers.Input((6, 3)),
            layers.Conv1D(4, 3, padding="same", activation="relu"),
            layers.BatchNormalization(),
            layers.LSTM(5),
            layers.Dense(2, activation="softmax"),
        ],
        name="portable",
    )
    model.compile(optimizers.Adam(0.01), "sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def flat(model):
    return np.concatenate([np.ravel(w).astype("float64") for w in model.get_weights()])


def train(path):
    x, y = data()
    model = build()
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    model.save(path)
    predictions = model.predict(x, verbose=0)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    np.savez(f"{path}.npz", predictions=predictions, after=flat(model))


def resume(path):
    x, y = data()
    model = mb_saving.load_model(path)
    out = {"predictions": np.asarray(model.predict(x, verbose=0))}
    if backends.backend_descriptor().trainable:
        model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        out["after"] = flat(model)
    np.savez(f"{path}.{config.backend()}.npz", **out)


def slow_save(path):
    model = Sequential([mb_layers.Input((3,)), layers.Dense(2)], name="first")
    model.save(path)
    np.save(f"{path}.first.npy", model.predict(np.ones((1, 3), "float32"), verbose=0))
    model.set_weights([w + 1.0 for w in model.get_weights()])
    write = zipfile.ZipFile.writestr

    def stalling_write(archive, name, data, *args, **kwargs):
        write(archive, name, data, *args, **kwargs)
        if name == "config.json":  # half of the new zip is on disk now
            archive.fp.flush()
            print("writing", flush=True)
            time.sleep(600)

    zipfile.ZipFile.writestr = stalling_write
    model.save(path)


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    {"train": train, "resume": resume, "slow-save": slow_save}[sys.argv[1]](sys.argv[2])
