"""Text and Python objects in the data are refused by name, where the backend cannot hold them."""

import numpy as np
import pytest

import mb_data
from mb_data import _text
from mb_ops import config


@pytest.fixture
def without_strings(monkeypatch):
    """The active backend, as one whose tensors hold no strings (jax, torch, openvino)."""
    monkeypatch.setitem(_text._HOLDS_STRINGS, config.backend(), False)


@pytest.fixture
def with_strings(monkeypatch):
    """The active backend, as one whose tensors hold strings (numpy, tensorflow)."""
    monkeypatch.setitem(_text._HOLDS_STRINGS, config.backend(), True)


def test_numpy_and_tensorflow_tensors_hold_strings():
    assert _text.holds_strings() == (config.backend() in ("numpy", "tensorflow"))


def test_text_arrays_pass_where_the_backend_holds_strings(with_strings):
    adapter = mb_data.ArrayDataAdapter(np.array([["a"], ["b"]]), np.zeros((2, 1), "float32"))
    assert adapter.num_batches == 1


def test_strings_are_refused_by_input_name_where_the_backend_holds_none(without_strings):
    x = {"text": np.array([["a"], ["b"]]), "n": np.zeros((2, 1), "float32")}
    with pytest.raises(TypeError) as caught:
        mb_data.ArrayDataAdapter(x, np.zeros((2, 1), "float32"))
    message = str(caught.value)
    assert "The input x['text'] is an array of strings (dtype <U1)" in message
    assert "Accepted: arrays of numbers or booleans" in message
    with pytest.raises(TypeError, match=r"The targets y are an array of strings \(dtype \|S1\)"):
        mb_data.ArrayDataAdapter(np.zeros((2, 1), "float32"), np.array([b"a", b"b"]))


def test_batches_of_other_adapters_are_checked_with_the_same_names(without_strings):
    def batches():
        yield np.zeros((2, 1), "float32"), np.array(["yes", "no"])

    adapter = mb_data.GeneratorDataAdapter(batches())
    with pytest.raises(TypeError, match=r"The targets y are an array of strings \(dtype <U3\)"):
        next(iter(adapter.get_iterator()))


def test_arrays_of_python_objects_are_refused_on_every_backend(with_strings):
    ages = np.array([31, "unknown", None], dtype=object)
    with pytest.raises(TypeError, match=r"x\['age'\] is an array of Python objects") as caught:
        mb_data.ArrayDataAdapter({"age": ages})
    assert "elements such as 31 (int)" in str(caught.value)
    assert "numpy.asarray(x, dtype='float32')" in str(caught.value)
    text = np.array(["a", "b", "c"], dtype=object)  # e.g. a pandas text column
    assert mb_data.ArrayDataAdapter(text).num_batches == 1  # text: the backend holds it
