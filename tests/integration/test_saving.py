""".keras files between Keras 3 and mb on the leg's backend, both ways.

Keras 3 (a test-only dependency) runs in a subprocess on its jax backend; mb runs
on the backend of this process. The model has a shared layer, two inputs, an LSTM,
a convolution and batch normalization, and is compiled with Adam, so the file
carries every kind of state (weights, statistics, optimizer slots).
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import mb as keras
from mb_ops import backends, config

# Keras only runs in the subprocess: importing it here would load its engines too.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)


def build(k):
    """The model, written once for `k` = mb or keras."""
    seq = k.Input((6, 3), name="seq")
    img = k.Input((8, 8, 2), name="img")
    shared = k.layers.Dense(4, name="shared")
    a = k.layers.LSTM(5, name="lstm")(seq)
    # channels_last written out: the torch leg's default layout is channels_first.
    # No bias before batch norm: its gradient is rounding noise, which Adam turns
    # into full-size steps of either sign, so resumed runs could not be compared.
    b = k.layers.Conv2D(3, 3, data_format="channels_last", use_bias=False, name="conv")(img)
    b = k.layers.BatchNormalization(axis=-1, name="bn")(b)
    b = k.layers.GlobalAveragePooling2D(data_format="channels_last", name="gap")(b)
    joined = k.layers.Concatenate(name="join")([shared(a), shared(k.layers.Dense(5)(b))])
    out = k.layers.Dense(2, activation="softmax", name="head")(joined)
    model = k.Model([seq, img], out, name="two_inputs")
    model.compile(optimizer=k.optimizers.Adam(1e-2), loss="sparse_categorical_crossentropy")
    return model


def data():
    rng = np.random.default_rng(5)
    x = [
        rng.normal(size=(16, 6, 3)).astype("float32"),
        rng.normal(size=(16, 8, 8, 2)).astype("float32"),
    ]
    return x, rng.integers(0, 2, size=(16,))


_KERAS_MAIN = """
mode, path = sys.argv[1], sys.argv[2]
x, y = data()
if mode == "write":
    model = build(keras)
    model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    model.save(path)
    np.save(path + ".pred.npy", model.predict(x, verbose=0))
else:
    model = keras.models.load_model(path)
    np.save(path + ".pred.npy", model.predict(x, verbose=0))
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    np.save(path + ".after.npy", np.concatenate([np.ravel(w) for w in model.get_weights()]))
"""
# The Keras process runs the very same `build` and `data` source.
_KERAS_SIDE = "\n".join(
    ["import sys", "import keras", "import numpy as np"]
    + [inspect.getsource(fn) for fn in (build, data)]
    + [_KERAS_MAIN]
)

trainable = pytest.mark.skipif(
    "value_and_grad" in getattr(backends.backend_module("training"), "UNSUPPORTED", {}),
    reason=f"the {config.backend()} backend is inference-only: it cannot train",
)


def _keras(mode, path):
    env = {**os.environ, "KERAS_BACKEND": "jax", "TF_CPP_MIN_LOG_LEVEL": "3"}
    env.pop("MB_BACKEND", None)
    result = subprocess.run(
        [sys.executable, "-c", _KERAS_SIDE, mode, str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def _flat(model):
    return np.concatenate([np.ravel(w) for w in model.get_weights()])


def test_a_file_keras_wrote_loads_here_and_predicts_the_same(tmp_path):
    path = tmp_path / "from_keras.keras"
    _keras("write", path)
    model = keras.models.load_model(path)
    x, _ = data()
    np.testing.assert_allclose(
        model.predict(x, verbose=0), np.load(str(path) + ".pred.npy"), rtol=1e-5, atol=1e-5
    )
    assert type(model.optimizer).__name__ == "Adam" and int(model.optimizer.iterations) == 4


@trainable
def test_a_file_trained_here_loads_in_keras_and_resumes_the_same(tmp_path):
    x, y = data()
    model = build(keras)
    model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    path = tmp_path / "from_mb.keras"
    model.save(path)
    _keras("read", path)
    np.testing.assert_allclose(
        np.load(str(path) + ".pred.npy"), model.predict(x, verbose=0), rtol=1e-5, atol=1e-5
    )
    # One more epoch from the saved optimizer state lands on the same weights (Adam
    # with lr 1e-2 moves each weight by up to 1e-2 a step; float rounding of tiny
    # second moments may shift one by a fraction of that).
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_allclose(np.load(str(path) + ".after.npy"), _flat(model), atol=1e-3)
