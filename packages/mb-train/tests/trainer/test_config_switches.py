"""The `keras.config` switches that govern training, honoured by fit/evaluate/predict:
`set_max_epochs`, `set_max_steps_per_epoch` (against Keras 3 in a subprocess),
interactive logging and traceback filtering."""

import io
import logging
import os
import textwrap
import traceback
from contextlib import redirect_stdout

import numpy as np
import pytest

import mb_layers
from mb_ops import config, ops, testing
from mb_train import utils
from mb_train.losses import MeanSquaredError
from mb_train.models import Model
from mb_train.optimizers import SGD

# The same float32 SGD steps in Keras and mb: they differ by rounding only.
KERAS = {"rtol": 1e-5, "atol": 1e-6}

_X = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
_Y = (_X @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")

_CAPPED_FIT = textwrap.dedent(
    """
    import json, sys, warnings
    import numpy as np
    import keras
    x, y = np.load(sys.argv[1]), np.load(sys.argv[2])
    keras.config.set_max_epochs(2)
    keras.config.set_max_steps_per_epoch(3)
    inp = keras.Input((3,))
    model = keras.Model(inp, keras.layers.Dense(1, kernel_initializer="zeros")(inp))
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        history = model.fit(x, y, batch_size=8, epochs=5, shuffle=False, verbose=0)
        evaluated = model.evaluate(x, y, batch_size=8, verbose=0)
        predicted = model.predict(x, batch_size=8, verbose=0)
    print(json.dumps({
        "loss": history.history["loss"],
        "iterations": int(model.optimizer.iterations.numpy()),
        "weights": [w.tolist() for w in model.get_weights()],
        "evaluated": float(evaluated),
        "predicted_rows": len(predicted),
        "warnings": sorted({str(w.message) for w in seen if "Limiting" in str(w.message)}),
    }))
    """
)


@pytest.fixture(autouse=True)
def _restore_switches():
    yield
    config.set_max_epochs(None)
    config.set_max_steps_per_epoch(None)
    config.enable_traceback_filtering()
    utils.enable_interactive_logging()


def _linear_model():
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1, kernel_initializer="zeros")(inp))
    model.compile(optimizer=SGD(0.05), loss=MeanSquaredError())
    return model


def _keras_capped_fit(tmp_path):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    np.save(tmp_path / "x.npy", _X)
    np.save(tmp_path / "y.npy", _Y)
    return testing.keras_json(
        _CAPPED_FIT,
        str(tmp_path / "x.npy"),
        str(tmp_path / "y.npy"),
        KERAS_HOME=str(tmp_path / "keras"),
        KERAS_MAX_EPOCHS=None,
        KERAS_MAX_STEPS_PER_EPOCH=None,
    )


def test_max_epochs_and_max_steps_cap_fit_evaluate_predict_as_keras(tmp_path):
    keras_side = _keras_capped_fit(tmp_path)
    config.set_max_epochs(2)
    config.set_max_steps_per_epoch(3)
    model = _linear_model()
    with pytest.warns(UserWarning, match="Limiting") as seen:
        history = model.fit(_X, _Y, batch_size=8, epochs=5, shuffle=False, verbose=0)
        evaluated = model.evaluate(_X, _Y, batch_size=8, verbose=0)
        predicted = model.predict(_X, batch_size=8, verbose=0)
    assert sorted({str(w.message) for w in seen}) == keras_side["warnings"]
    assert int(model.optimizer.iterations.numpy()) == keras_side["iterations"] == 6
    np.testing.assert_allclose(history.history["loss"], keras_side["loss"], **KERAS)
    for mine, theirs in zip(model.get_weights(), keras_side["weights"], strict=True):
        np.testing.assert_allclose(mine, theirs, **KERAS)
    np.testing.assert_allclose(evaluated, keras_side["evaluated"], **KERAS)
    assert len(predicted) == keras_side["predicted_rows"] == 24


def test_a_cap_above_the_request_changes_nothing():
    config.set_max_epochs(10)
    config.set_max_steps_per_epoch(100)
    model = _linear_model()
    history = model.fit(_X, _Y, batch_size=8, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    assert int(model.optimizer.iterations.numpy()) == 16


@pytest.mark.parametrize("verbose", [1, 2])
def test_progress_goes_to_logging_when_interactive_logging_is_off(caplog, verbose):
    model = _linear_model()
    utils.disable_interactive_logging()
    assert not utils.is_interactive_logging_enabled()
    out = io.StringIO()
    with redirect_stdout(out), caplog.at_level(logging.INFO, logger="mb"):
        model.fit(_X, _Y, batch_size=8, epochs=2, verbose=verbose)
    assert out.getvalue() == ""
    lines = [r.getMessage() for r in caplog.records if r.name == "mb"]
    assert [line.split(" - ")[0] for line in lines] == ["Epoch 1/2", "Epoch 2/2"]
    assert all("loss:" in line for line in lines)
    utils.enable_interactive_logging()
    with redirect_stdout(out):
        model.fit(_X, _Y, batch_size=8, epochs=1, verbose=2)
    assert "Epoch 1/1" in out.getvalue()


class _Broken(mb_layers.Layer):
    def call(self, x):
        return _user_helper(x)


def _user_helper(x):
    raise ValueError("bad input in user code")


def _is_mb(filename):
    return f"{os.sep}mb_" in filename or f"{os.sep}mb{os.sep}" in filename


def _fit_broken_model():
    broken = _BrokenModel()
    broken.compile(optimizer=SGD(0.05), loss=MeanSquaredError())
    with pytest.raises(ValueError, match="bad input in user code") as info:
        broken.fit(_X, _Y, epochs=1, verbose=0)
    return traceback.extract_tb(info.value.__traceback__)


class _BrokenModel(Model):
    def __init__(self):
        super().__init__()
        self.broken = _Broken()

    def call(self, x):
        return self.broken(ops.convert_to_tensor(x))


def test_tracebacks_of_fit_show_user_frames_only():
    frames = _fit_broken_model()
    names = [frame.name for frame in frames]
    assert "_user_helper" in names and "call" in names
    assert not [frame.filename for frame in frames if _is_mb(frame.filename)]


def test_disabled_traceback_filtering_shows_mb_frames():
    config.disable_traceback_filtering()
    frames = _fit_broken_model()
    assert [frame.filename for frame in frames if _is_mb(frame.filename)]
    assert frames[-1].name == "_user_helper"
