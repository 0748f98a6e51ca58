"""Text where a model takes numbers: a clear error naming the input, on every backend.

Where the backend's tensors hold no strings (jax, torch, openvino) mb-data
refuses the array (``x['text']``); where they do (tensorflow, numpy) the
model's Input refuses it. Either way the message names the input, its dtype
and what is accepted, instead of an engine's error from a compiled step.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb as keras
from mb_ops import backends, config


def _two_inputs():
    text = keras.Input((2,), name="text")
    count = keras.Input((1,), name="count")
    joined = keras.layers.Concatenate()([text, count])
    model = keras.Model([text, count], keras.layers.Dense(1)(joined))
    model.compile(optimizer="sgd", loss="mse")
    return model


@pytest.mark.parametrize("method", ["predict", "fit"])
def test_string_inputs_are_refused_naming_the_input_its_dtype_and_what_is_accepted(method):
    if method == "fit" and not backends.backend_descriptor().trainable:
        pytest.skip(f"the {config.backend()} backend is inference-only: it cannot train")
    model = _two_inputs()
    x = {"text": np.array([["a", "b"]] * 4), "count": np.ones((4, 1), "float32")}
    y = np.zeros((4, 1), "float32")
    with pytest.raises(TypeError) as caught:
        if method == "fit":
            model.fit(x, y, verbose=0)
        else:
            model.predict(x, verbose=0)
    message = str(caught.value)
    # Where the backend's tensors hold no strings, the data is refused (x['text']);
    # where they do, the model's Input 'text' refuses them.
    assert "'text'" in message and ("<U1" in message or "string" in message), message
    assert "Accepted: arrays of numbers" in message or "Give it arrays of float32" in message
    mixed = np.array([[1, "a"]] * 4, dtype=object)
    with pytest.raises(TypeError, match=r"x\['text'\] is an array of Python objects"):
        model.predict({"text": mixed, "count": x["count"]}, verbose=0)


def test_a_string_input_takes_text_where_the_backend_holds_strings():
    words = keras.Input((1,), dtype="string", name="words")
    model = keras.Model(words, keras.layers.StringLookup(vocabulary=["a", "b"])(words))
    text = np.array([["a"], ["b"], ["z"]])
    try:
        keras.ops.convert_to_tensor(text)
    except TypeError:
        # The backend's tensors hold no strings: the data is refused before the model.
        with pytest.raises(TypeError, match=r"The input x is an array of strings"):
            model.predict(text, verbose=0)
        return
    out = keras.ops.convert_to_numpy(model(text))
    assert out.tolist() == [[1], [2], [0]]
