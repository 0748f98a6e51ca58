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
import signal
import stat
import subprocess
import sys
import threading
import zipfile

import h5py
import numpy as np
import pytest

import mb as keras
from mb_ops import backends, config, testing

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
    testing.run_keras(_KERAS_SIDE, mode, str(path), backend="jax")


def _flat(model):
    return np.concatenate([np.ravel(w) for w in model.get_weights()])


@pytest.mark.heavy
def test_a_file_keras_wrote_loads_here_and_predicts_the_same(tmp_path):
    path = tmp_path / "from_keras.keras"
    _keras("write", path)
    model = keras.models.load_model(path)
    x, _ = data()
    np.testing.assert_allclose(
        model.predict(x, verbose=0), np.load(str(path) + ".pred.npy"), rtol=1e-5, atol=1e-5
    )
    assert type(model.optimizer).__name__ == "Adam" and int(model.optimizer.iterations) == 4


@pytest.mark.heavy
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


# ----- files that point outside themselves (HDF5 external data and links) -----------------

# The crafted-file generator of mb-saving's fuzz tests (one definition of each kind).
_FUZZ = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "packages", "mb-saving", "tests"
)
_spec = importlib.util.spec_from_file_location("mb_saving_fuzz_io", os.path.join(_FUZZ, "fuzz.py"))
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)
SECRET = np.arange(12, dtype="float32").reshape(4, 3) + 100.0


def _small():
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="d")], name="small")


@pytest.fixture
def outside_targets(tmp_path):
    raw = tmp_path / "secret.bin"
    raw.write_bytes(SECRET.tobytes())
    with h5py.File(tmp_path / "secret.h5", "w") as f:
        f["data"] = SECRET
    return {"external storage": str(raw), "soft link": "/stash"}, str(tmp_path / "secret.h5")


@pytest.mark.parametrize("container", ["weights.h5", "keras"])
@pytest.mark.parametrize("kind", fuzz.REACHING_OUT)
def test_weights_pointing_outside_the_file_are_refused_unread(
    tmp_path, outside_targets, kind, container
):
    targets, h5_target = outside_targets
    target = targets.get(kind, h5_target)
    model = _small()
    before = [w.copy() for w in model.get_weights()]
    good, bad = tmp_path / f"ok.{container}", tmp_path / f"bad.{container}"
    if container == "keras":
        model.save(good)
        bad.write_bytes(fuzz.reaching_out_archive(good.read_bytes(), kind, target))
    else:
        model.save_weights(good)
        bad.write_bytes(fuzz.reaching_out(good.read_bytes(), kind, target))
    with pytest.raises(ValueError, match=r"'layers/dense/vars/0'") as caught:
        model.load_weights(bad)
    assert target in str(caught.value) and kind in str(caught.value)
    if container == "keras":
        with pytest.raises(ValueError, match=kind):
            keras.models.load_model(bad)
    for now, then in zip(model.get_weights(), before, strict=True):
        np.testing.assert_array_equal(now, then)


def test_external_storage_on_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    model = _small()
    model.save_weights(tmp_path / "ok.weights.h5")
    bad = tmp_path / "bad.weights.h5"
    bad.write_bytes(
        fuzz.reaching_out((tmp_path / "ok.weights.h5").read_bytes(), "external storage", fifo)
    )
    errors = []

    def load():
        try:
            model.load_weights(bad)
        except ValueError as error:
            errors.append(error)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(60)
    if thread.is_alive():
        # Give the stuck reader an end of file, then fail.
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
        pytest.fail("loading blocked on the FIFO the file's external storage names")
    assert errors and fifo in str(errors[0])


# ----- file modes and temporaries -----------------------------------------------------


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_saved_files_get_the_mode_open_gives_them(tmp_path, umask):
    old = os.umask(umask)
    try:
        model = _small()
        model.save(tmp_path / "m.keras")
        model.save_weights(tmp_path / "m.weights.h5")
    finally:
        os.umask(old)
    for name in ("m.keras", "m.weights.h5"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o666 & ~umask, name


def test_a_save_killed_mid_write_keeps_the_old_file_and_the_next_load_cleans_up(tmp_path):
    path = tmp_path / "model.keras"
    process = subprocess.Popen(
        [sys.executable, os.path.join(_FUZZ, "backend_side.py"), "slow-save", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )
    try:
        assert process.stdout.readline().strip() == "writing", process.stderr.read()[-3000:]
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=60)
        process.stdout.close()
        process.stderr.close()
    assert [p.name for p in tmp_path.iterdir() if ".mb-tmp-" in p.name]
    model = keras.models.load_model(path)
    np.testing.assert_array_equal(
        model.predict(np.ones((1, 3), "float32"), verbose=0), np.load(f"{path}.first.npy")
    )
    assert not [p.name for p in tmp_path.iterdir() if ".mb-tmp-" in p.name]


# ----- the zip-bomb guard -------------------------------------------------------------


def test_a_zero_heavy_model_rezipped_with_deflate_loads_and_a_bomb_does_not(tmp_path):
    model = keras.Sequential(
        [keras.Input((256,)), keras.layers.Dense(2048, kernel_initializer="zeros")]
    )
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    model.optimizer.build(model.trainable_variables)  # zero slots too
    model.save(tmp_path / "stored.keras")
    deflated = fuzz.rezip((tmp_path / "stored.keras").read_bytes())
    (tmp_path / "deflated.keras").write_bytes(deflated)
    with zipfile.ZipFile(tmp_path / "deflated.keras") as archive:
        info = archive.getinfo("model.weights.h5")
    assert info.file_size > 500 * info.compress_size  # what a ratio guard refused
    loaded = keras.models.load_model(tmp_path / "deflated.keras")
    x = np.ones((2, 256), "float32")
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    # 640 MB of zeros declared in a file of about 1 KB: refused from the header.
    bomb = fuzz.declare_size(
        fuzz.rezip(deflated, replace={"model.weights.h5": lambda f: f.write(bytes(256))}),
        "model.weights.h5",
        640 * 2**20,
    )
    (tmp_path / "bomb.keras").write_bytes(bomb)
    with pytest.raises(ValueError, match="zip bomb"):
        keras.models.load_model(tmp_path / "bomb.keras")


# ----- functions in configs (Lambda, activations, losses) --------------------------------

_KERAS_ROUND_TRIP = """
import sys
import keras
import numpy as np
model = keras.saving.load_model(sys.argv[1])  # safe_mode left at its default
np.save(sys.argv[1] + ".pred.npy", model.predict(np.array([[-1.0, 0.5, 2.0]]), verbose=0))
model.save(sys.argv[2])
"""


@pytest.mark.heavy
def test_a_lambda_of_a_builtin_function_goes_to_keras_and_back(tmp_path):
    model = keras.Sequential(
        [
            keras.Input((3,)),
            keras.layers.Lambda(keras.activations.relu),
            keras.layers.Dense(2, activation=keras.activations.gelu),
        ]
    )
    model.compile(
        optimizer="adam",
        loss=keras.losses.mean_squared_error,
        metrics=[keras.metrics.mean_absolute_error],
    )
    x = np.array([[-1.0, 0.5, 2.0]], "float32")
    expected = model.predict(x, verbose=0)
    model.save(tmp_path / "mb.keras")
    testing.run_keras(_KERAS_ROUND_TRIP, str(tmp_path / "mb.keras"), str(tmp_path / "k.keras"))
    np.testing.assert_allclose(np.load(tmp_path / "mb.keras.pred.npy"), expected, atol=1e-6)
    for safe_mode in (True, False):
        back = keras.models.load_model(tmp_path / "k.keras", safe_mode=safe_mode)
        np.testing.assert_allclose(back.predict(x, verbose=0), expected, atol=1e-6)
