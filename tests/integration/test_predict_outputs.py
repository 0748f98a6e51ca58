"""`predict` joins its batches' outputs into NumPy arrays, on every backend.

An engine that can join them itself (torch's ``training.concatenate_outputs``: one
``torch.cat`` and one conversion) does so; outputs it cannot join fall back to
NumPy's ``concatenate``, whose error a mismatch still raises, as in Keras.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb as keras
from mb_ops import backends

TOL = {"rtol": 1e-5, "atol": 1e-6}


def _two_output_model():
    x = keras.Input((3,))
    dense = keras.layers.Dense(2, kernel_initializer="glorot_uniform", bias_initializer="ones")
    h = dense(x)
    return keras.Model(x, {"sum": keras.ops.sum(h, axis=-1, keepdims=True), "h": h}), dense


def _counting_join(monkeypatch):
    """Counts the engine's joins (and still joins), where the backend has one."""
    training = backends.backend_module("training")
    original = getattr(training, "concatenate_outputs", None)
    calls = []
    if original is not None:

        def counted(batches):
            calls.append(len(batches))
            return original(batches)

        monkeypatch.setattr(training, "concatenate_outputs", counted)
    return original is not None, calls


def test_predict_joins_every_output_over_the_batches(monkeypatch):
    model, dense = _two_output_model()
    x = np.random.default_rng(0).normal(size=(70, 3)).astype("float32")
    has_join, calls = _counting_join(monkeypatch)
    out = model.predict(x, batch_size=16, verbose=0)  # 4 full batches and one of 6
    kernel, bias = (np.asarray(w) for w in dense.get_weights())
    h = x @ kernel + bias
    assert set(out) == {"sum", "h"}
    assert isinstance(out["h"], np.ndarray) and out["h"].dtype == np.float32
    np.testing.assert_allclose(out["h"], h, **TOL)
    np.testing.assert_allclose(out["sum"], h.sum(axis=-1, keepdims=True), **TOL)
    if has_join:  # one engine call per output, each over the 5 batches
        assert calls == [5, 5]


def test_outputs_that_cannot_be_joined_raise_numpys_error(monkeypatch):
    # Batches of different widths through a model that keeps the width: the
    # outputs cannot be concatenated (Keras raises NumPy's error too).
    x = keras.Input((None,))
    model = keras.Model(x, keras.layers.Rescaling(2.0)(x))

    def batches():
        yield np.ones((2, 3), "float32")
        yield np.ones((2, 5), "float32")

    _counting_join(monkeypatch)
    with pytest.raises(ValueError, match="dimensions"):
        model.predict(batches(), verbose=0)


def test_a_predictions_array_is_not_overwritten_by_the_next_predict():
    model, _ = _two_output_model()
    rng = np.random.default_rng(1)
    first = model.predict(rng.normal(size=(8, 3)).astype("float32"), verbose=0)  # one batch
    kept = {k: v.copy() for k, v in first.items()}
    for _ in range(3):
        later = model.predict(rng.normal(size=(8, 3)).astype("float32"), verbose=0)
    for name in kept:
        np.testing.assert_array_equal(first[name], kept[name])
        assert not np.array_equal(first[name], later[name])
