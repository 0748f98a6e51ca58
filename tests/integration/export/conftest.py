"""What the export tests share: a zoo of small models, each built once per session, and
each (model, format) artifact written once per session and read by every test that
needs it (the runtime check, mb inspect, TFSMLayer).

Which pairs are checked (`CASES`): every format and every kind of model at least
once on each backend, not the whole cross product. A format the backend writes
itself is checked on several models; a format it writes through another backend
(a subprocess converting a .keras file) only on the first, since the subprocess
costs seconds and the converting backend's own leg checks the rest.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
from dataclasses import dataclass

import numpy as np
import pytest

import mb
from mb import layers
from mb_export import _routes
from mb_ops import backends


def _rng(seed):
    return np.random.default_rng(seed)


def mlp():
    x = layers.Input((4,), name="features")
    h = layers.Dense(8, activation="relu")(x)
    h = layers.BatchNormalization()(h)
    model = mb.Model(x, layers.Dense(3, activation="softmax")(h), name="mlp")
    return model, [_rng(1).random((5, 4), dtype="float32")]


def cnn():
    # channels_last written out: the torch leg's default layout is channels_first.
    x = layers.Input((8, 8, 3), name="image")
    h = layers.Conv2D(4, 3, padding="same", data_format="channels_last")(x)
    h = layers.BatchNormalization()(h)
    h = layers.Activation("relu")(h)
    h = layers.MaxPooling2D(data_format="channels_last")(h)
    h = layers.Flatten()(h)
    model = mb.Model(x, layers.Dense(2)(h), name="cnn")
    return model, [_rng(2).random((3, 8, 8, 3), dtype="float32")]


def lstm():
    x = layers.Input((5, 3), name="sequence")
    h = layers.LSTM(4)(x)
    model = mb.Model(x, layers.Dense(2)(h), name="lstm")
    return model, [_rng(3).random((3, 5, 3), dtype="float32")]


def sequences():
    """Recurrent layers that return every step (LiteRT needs fixed shapes for them on
    some backends)."""
    x = layers.Input((5, 3), name="sequence")
    h = layers.LSTM(4, return_sequences=True)(x)
    h = layers.GRU(3)(h)
    model = mb.Model(x, layers.Dense(2)(h), name="sequences")
    return model, [_rng(4).random((3, 5, 3), dtype="float32")]


def transformer():
    tokens = layers.Input((6,), dtype="int32", name="tokens")
    h = layers.Embedding(20, 8, mask_zero=True)(tokens)
    attended = layers.MultiHeadAttention(num_heads=2, key_dim=4)(h, h)
    h = layers.LayerNormalization()(layers.Add()([h, attended]))
    h = layers.GlobalAveragePooling1D(data_format="channels_last")(h)
    model = mb.Model(tokens, layers.Dense(2)(h), name="transformer")
    ids = _rng(5).integers(1, 20, size=(3, 6)).astype("int32")
    ids[0, 4:] = 0  # padding, masked out
    return model, [ids]


def preprocessing():
    x = layers.Input((3,), name="raw")
    h = layers.Normalization(mean=[1.0, 2.0, 3.0], variance=[1.0, 4.0, 9.0])(x)
    h = layers.Rescaling(0.5, offset=0.1)(h)
    model = mb.Model(x, layers.Dense(2)(h), name="preprocessing")
    return model, [_rng(6).random((4, 3), dtype="float32") * 5]


def dict_inputs():
    """Two named inputs in a dict, two named outputs."""
    a = layers.Input((3,), name="a")
    b = layers.Input((2,), name="b")
    h = layers.Concatenate()([a, b])
    outputs = [layers.Dense(2, name="left")(h), layers.Dense(1, name="right")(h)]
    model = mb.Model({"a": a, "b": b}, outputs, name="dict_inputs")
    rng = _rng(7)
    return model, [
        {"a": rng.random((4, 3), dtype="float32"), "b": rng.random((4, 2), dtype="float32")}
    ]


ZOO = {f.__name__: f for f in (mlp, cnn, lstm, sequences, transformer, preprocessing, dict_inputs)}
KINDS = ("mlp", "cnn", "lstm", "transformer", "preprocessing", "dict_inputs")

FILENAMES = {
    "tf_saved_model": "saved_model",
    "onnx": "model.onnx",
    "openvino": "model.xml",
    "litert": "model.tflite",
    "torch": "model.pt2",
}

# The models each format is checked on; dict_inputs first: it is the one checked
# where the format goes through another backend, and the one `mb inspect` reads.
CASES = {
    "tf_saved_model": ("dict_inputs", "transformer", "lstm", "mlp"),
    "litert": ("dict_inputs", "cnn", "preprocessing"),
    "onnx": ("dict_inputs", "cnn", "lstm", "transformer"),
    "openvino": ("dict_inputs", "mlp", "lstm"),
    "torch": ("dict_inputs", "preprocessing", "transformer", "cnn"),
}


def native_formats():
    """The formats the active backend writes itself (the others go through a subprocess)."""
    module = backends.backend_module("export")
    return [f for f in _routes.FORMATS if _routes.native_step(module, f)]


def export_cases():
    native = native_formats()
    cases = [
        (format, name)
        for format, names in CASES.items()
        for name in (names if format in native else names[:1])
    ]
    missing = set(KINDS) - {name for _, name in cases}
    if native and missing:  # CASES was edited: keep every kind checked on every backend
        raise ValueError(f"The export cases check no {sorted(missing)} on this backend.")
    return cases


@pytest.fixture(name="native_formats", scope="session")
def native_formats_fixture():
    return native_formats()


def pytest_generate_tests(metafunc):
    if "export_case" in metafunc.fixturenames:
        cases = export_cases()
        metafunc.parametrize("export_case", cases, ids=[f"{f}-{n}" for f, n in cases])


def _set_weights(model, seed):
    """The same weights in every process (xdist workers share the artifacts)."""
    rng = _rng(seed)
    for weight in model.weights:
        value = rng.normal(scale=0.5, size=weight.shape)
        if "moving_variance" in weight.path:
            value = np.abs(value) + 0.5
        weight.assign(value.astype(weight.dtype))


@pytest.fixture(scope="session")
def zoo():
    """``zoo(name)``: the model and its sample arguments, built once per session."""
    built = {}

    def get(name):
        if name not in built:
            model, arguments = ZOO[name]()
            _set_weights(model, sorted(ZOO).index(name))
            built[name] = model, arguments
        return built[name]

    return get


@dataclass
class Artifact:
    path: str
    log: str  # what model.export printed


@pytest.fixture(scope="session")
def exported(tmp_path_factory, zoo):
    """``exported(name, format)``: the zoo model `name` exported once as `format`.

    Under xdist the workers share one folder: the first to need an artifact writes
    it (holding a lock), the others wait and read it, so no conversion runs twice.
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the session's folder, above each worker's own
    root = root / "mb-export-artifacts"
    root.mkdir(exist_ok=True)

    def get(name, format):
        folder = root / f"{name}-{format}"
        path, log = folder / FILENAMES[format], folder / "export.log"
        with open(root / f"{name}-{format}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not log.exists():
                folder.mkdir(exist_ok=True)
                model, _ = zoo(name)
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    model.export(str(path), format=format, verbose=True)
                log.write_text(out.getvalue())
        return Artifact(str(path), log.read_text())

    return get


def predict(model, arguments):
    """The model's outputs for `arguments` as a flat list of NumPy arrays."""
    outputs = model.predict(arguments[0] if len(arguments) == 1 else arguments, verbose=0)
    if not isinstance(outputs, (list, tuple)):
        outputs = [outputs]
    return [np.asarray(o) for o in outputs]


@pytest.fixture(scope="session")
def predictions(zoo):
    """``predictions(name)``: the zoo model's ``predict`` on its sample arguments."""
    computed = {}

    def get(name):
        if name not in computed:
            model, arguments = zoo(name)
            computed[name] = predict(model, arguments)
        return computed[name]

    return get
