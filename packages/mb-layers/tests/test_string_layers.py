"""Hashing, lookup and text layers: harness checks, errors, and the two lookup paths.

Numbers against Keras 3 are in test_string_layers_against_keras.py.
"""

import doctest
import importlib

import numpy as np
import pytest

import mb_layers
from mb_layers import layers
from mb_layers.testing import run_layer_test
from mb_ops import config, ops

WORDS = np.array([["the", "cat"], ["sat", "zebra"]])


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


@pytest.mark.parametrize("module", ["_hashing", "_lookup", "_text_vectorization"])
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(f"mb_layers.layers.{module}"))
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(
    ("cls", "kwargs", "data", "shape"),
    [
        (layers.Hashing, {"num_bins": 3}, WORDS, (2, 2)),
        (layers.Hashing, {"num_bins": 4, "output_mode": "count"}, WORDS, (2, 4)),
        (layers.StringLookup, {"vocabulary": ["the", "cat", "sat"]}, WORDS, (2, 2)),
        (
            layers.StringLookup,
            {"vocabulary": ["the", "cat"], "output_mode": "multi_hot"},
            WORDS,
            (2, 3),
        ),
        (layers.IntegerLookup, {"vocabulary": [3, 1, 4]}, np.array([[3, 9], [4, 1]]), (2, 2)),
        (
            layers.TextVectorization,
            {"vocabulary": ["the", "cat"], "output_sequence_length": 3},
            np.array(["the cat", "a cat sat"]),
            (2, 3),
        ),
    ],
)
def test_string_layers_through_the_harness(cls, kwargs, data, shape):
    run_layer_test(
        cls,
        kwargs,
        input_data=data,
        expected_output_shape=shape,
        expected_num_trainable_weights=0,
        run_mixed_precision_check=False,
    )


def test_symbolic_string_input_builds_a_functional_model():
    inputs = mb_layers.Input((1,), dtype="string")
    lookup = layers.StringLookup(vocabulary=["a", "b"], output_mode="one_hot")
    outputs = lookup(inputs)
    assert outputs.shape == (None, 3) and outputs.dtype == "float32"
    if config.backend() == "numpy":  # other engines hold no strings in a network's inputs
        net = mb_layers.Functional(inputs, outputs)
        np.testing.assert_array_equal(_np(net(np.array([["b"], ["q"]]))), [[0, 0, 1], [1, 0, 0]])
    text = layers.TextVectorization(vocabulary=["a"], output_sequence_length=4)(inputs)
    assert text.shape == (None, 4) and text.dtype == "int64"


@pytest.mark.parametrize("cls", [layers.StringLookup, layers.IntegerLookup])
def test_unknown_values_with_no_oov_index_are_refused(cls):
    strings = cls is layers.StringLookup
    vocab, unknown = (["a", "b"], [["a", "c"]]) if strings else ([1, 2], [[1, 7]])
    layer = cls(vocabulary=vocab, num_oov_indices=0)
    with pytest.raises(ValueError, match="num_oov_indices=0"):
        layer(np.asarray(unknown))
    assert _np(layer(np.asarray(unknown)[:, :1])).tolist() == [[0]]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vocabulary": ["a", "a"]}, "repeated"),
        ({"vocabulary": ["a", ""], "mask_token": ""}, "mask token"),
        ({"vocabulary": ["a", "b", "c"], "max_tokens": 3}, "max_tokens"),
        ({"invert": True, "output_mode": "multi_hot"}, "invert"),
        ({"output_mode": "tfidf"}, "output_mode"),
        ({"vocabulary": ["a"], "output_mode": "tf_idf"}, "idf_weights"),
    ],
)
def test_string_lookup_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        layers.StringLookup(**kwargs)


def test_unsupported_and_invalid_options_say_why():
    with pytest.raises(NotImplementedError, match="sparse"):
        layers.StringLookup(sparse=True, output_mode="multi_hot")
    with pytest.raises(ValueError, match="salt"):
        layers.Hashing(3, salt="x")
    with pytest.raises(ValueError, match="at least two"):
        layers.HashedCrossing(3)([np.array([1])])
    with pytest.raises(ValueError, match="same shape"):
        layers.HashedCrossing(3)([np.array([1, 2]), np.array([1])])
    with pytest.raises(ValueError, match="ngrams"):
        layers.TextVectorization(ngrams="2")
    with pytest.raises(ValueError, match="output_sequence_length"):
        layers.TextVectorization(output_mode="count", output_sequence_length=3)
    with pytest.raises(RuntimeError, match="adapt"):
        layers.StringLookup(output_mode="count")(["a"])


def test_adapt_orders_by_frequency_and_respects_max_tokens():
    layer = layers.StringLookup(max_tokens=4, mask_token="")
    layer.adapt(np.array(["b", "a", "b", "c", "c", "c", "", "d"]))
    assert layer.get_vocabulary() == ["", "[UNK]", "c", "b"]
    assert layer.vocabulary_size() == 4
    assert layer.get_vocabulary(include_special_tokens=False) == ["c", "b"]
    with pytest.raises(ValueError, match="fixed vocabulary"):
        layers.StringLookup(vocabulary=["a"]).adapt(["a"])


def test_vocabulary_file_is_read_and_inlined_in_the_config(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("cat\ndog\n\n", encoding="utf-8")
    layer = layers.StringLookup(vocabulary=str(path))
    assert layer.get_vocabulary() == ["[UNK]", "cat", "dog"]
    assert layer.get_config()["vocabulary"] == ["cat", "dog"]
    layer.set_vocabulary(["x", "y", "z"])
    assert _np(layers.StringLookup.from_config(layer.get_config())(["z"])).tolist() == [3]


@pytest.mark.parametrize(
    "code",
    [
        "StringLookup()",
        "StringLookup(mask_token='', num_oov_indices=0)",
        "StringLookup(output_mode='tf_idf')",
        "IntegerLookup()",
        "IntegerLookup(num_oov_indices=0, mask_token=None)",
        "IntegerLookup(output_mode='multi_hot')",
        "TextVectorization()",
    ],
)
def test_lookup_layers_never_adapted_save_and_load_their_assets(code, tmp_path):
    def make():
        return eval(f"layers.{code}", {"layers": layers})

    layer = make()
    layer.save_assets(str(tmp_path))
    # As Keras: with no vocabulary in the config, the special tokens alone (or nothing).
    assert (tmp_path / "vocabulary.txt").exists()
    fresh = make()
    fresh.load_assets(str(tmp_path))
    assert fresh.get_vocabulary() == layer.get_vocabulary()
    assert {**fresh.get_config(), "name": None} == {**layer.get_config(), "name": None}
    # Still a layer to adapt, not one with a fixed vocabulary.
    if isinstance(fresh, layers.IntegerLookup):
        fresh.adapt(np.array([4, 4, 5]))
        assert fresh.get_vocabulary(include_special_tokens=False) == [4, 5]
    else:
        fresh.adapt(np.array(["b", "a", "b"]))
        assert fresh.get_vocabulary()[-2:] == ["b", "a"]
    # A folder without the file (a layer saved by an older mb) loads too.
    other = make()
    other.load_assets(str(tmp_path / "empty"))
    assert other.get_vocabulary() == layer.get_vocabulary()


def test_tf_idf_weights_are_saved_as_the_layer_state():
    layer = layers.IntegerLookup(output_mode="tf_idf")
    layer.adapt(np.array([[1, 2], [2, 3]]))
    store = {}
    layer.save_own_variables(store)
    np.testing.assert_allclose(store["idf_weights"][1:], np.log(1 + 2 / (1 + np.array([2, 1, 1]))))
    other = layers.IntegerLookup(
        output_mode="tf_idf", vocabulary=[2, 1, 3], idf_weights=[0.0, 0.0, 0.0]
    )
    other.load_own_variables(store)
    expected = [[0, 2 * store["idf_weights"][1], 0, 0]]
    np.testing.assert_allclose(_np(other(np.array([[2, 2]]))), expected)


@pytest.mark.parametrize("mask_token", [None, 0])
@pytest.mark.parametrize("num_oov", [1, 3])
@pytest.mark.parametrize("output_mode", ["int", "multi_hot"])
def test_integer_lookup_ops_path_agrees_with_the_host_path(mask_token, num_oov, output_mode):
    layer = layers.IntegerLookup(
        vocabulary=[4, -2, 10, 7],
        mask_token=mask_token,
        num_oov_indices=num_oov,
        output_mode=output_mode,
    )
    values = np.random.default_rng(1).integers(-5, 12, size=(6, 5))
    host = layer._lookup_host(values)
    np.testing.assert_array_equal(_np(layer._lookup_ops(values)), host)
    assert _np(layer(values)).shape == ((6, 5) if output_mode == "int" else (6, 4 + num_oov))


def test_text_vectorization_standardizes_like_tensorflow():
    layer = layers.TextVectorization(split=None, vocabulary=["ä", "hello world", "tab"])
    # ASCII-only lowercasing and the Keras punctuation set; non-ASCII letters stay.
    out = _np(layer(np.array([["HeLLo, World!"], ["Ä"], ["ä"]])))
    assert out[:, 0].tolist() == [3, 1, 2]


def test_text_vectorization_with_callables():
    layer = layers.TextVectorization(
        standardize=lambda t: np.char.upper(t),
        split=lambda t: [s.split("-") for s in t],
        vocabulary=["A", "B"],
    )
    assert _np(layer(["a-b-c", "b"])).tolist() == [[2, 3, 1], [3, 0, 0]]


def test_text_vectorization_builds_without_a_shape_as_in_keras():
    layer = layers.TextVectorization(vocabulary=["a", "b"], output_sequence_length=3)
    layer.build()
    assert layer.built
    np.testing.assert_array_equal(ops.convert_to_numpy(layer(["b a zz"])), [[3, 2, 1]])
