"""Public attributes of layers, read as Keras 3 programs read them: for the same
constructor arguments (and, where given, the same build and `adapt` data), each
attribute's value equals Keras 3.15's, compared in a subprocess (NumPy backend).

Values are described the same way on both sides (`_DESCRIBE`): numbers, strings and
containers as they are; functions by name; objects with a config by class and config;
tensors and variables by shape and dtype, and by their values where the case asks
(``"mean=values"``; random initial weights are compared by shape only)."""

import json

import numpy as np
import pytest

import mb_layers
from mb_ops import testing

pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")

_DESCRIBE = """
import numpy as _np

def describe(value, with_values=False):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [describe(v, with_values) for v in value]
    if isinstance(value, dict):
        return {str(k): describe(v, with_values) for k, v in value.items()}
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        array = _np.asarray(value)
        out = {"shape": list(array.shape), "dtype": str(array.dtype)}
        if with_values:
            out["values"] = _np.round(array.astype("float64"), 4).tolist()
        return out
    if hasattr(value, "get_config"):
        return {"class": type(value).__name__, "config": describe(value.get_config())}
    if callable(value) and hasattr(value, "__name__"):
        return "function " + value.__name__
    return "object " + type(value).__name__

def run_case(layers, case):
    layer = eval(case["make"], {"layers": layers, "np": _np})
    if case.get("adapt") is not None:
        layer.adapt(_np.asarray(case["adapt"], dtype="float32"))
    if case.get("build") is not None:
        x = _np.zeros(case["build"], dtype="float32")
        layer(x, x) if case.get("two_inputs") else layer(x)
    out = {}
    for method, shape in case.get("shapes", []):
        shape = tuple(shape) if not isinstance(shape[0], list) else [tuple(s) for s in shape]
        out[method + str(shape)] = describe(getattr(layer, method)(shape))
    for item in case["attrs"]:
        name, _, how = item.partition("=")
        value = layer
        for part in name.split("."):
            value = getattr(value, part)
        out[item] = describe(value, with_values=how == "values")
    return out
"""

# (constructor, input shape to build it with or None, attributes[, adapt data])
_RNN_CELL_ATTRS = [
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "unit_forget_bias",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
]
_CONV_ATTRS = ["filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate"]

CASES = {
    "conv_2d": {
        "make": "layers.Conv2D(4, 3, strides=2, padding='same')",
        "build": None,
        "attrs": ["rank", "strides", "dilation_rate", "kernel_size"],
        "shapes": [("compute_output_shape", [None, 7, 9, 3])],
    },
    "conv_3d_transpose": {
        "make": "layers.Conv3DTranspose(2, 3, strides=2, data_format='channels_first')",
        "build": None,
        "attrs": ["rank", "strides", "dilation_rate", "data_format", "output_padding"],
        "shapes": [("compute_output_shape", [2, 1, 4, 4, 4])],
    },
    "conv_1d_transpose": {
        "make": "layers.Conv1DTranspose(2, 3)",
        "build": None,
        "attrs": ["rank"],
        "shapes": [("compute_output_shape", [2, 5, 1])],
    },
    "depthwise_1d": {
        "make": "layers.DepthwiseConv1D(3, depth_multiplier=2)",
        "build": None,
        "attrs": ["rank", "strides"],
        "shapes": [("compute_output_shape", [2, 9, 4])],
    },
    "separable_2d": {
        "make": "layers.SeparableConv2D(4, 3, dilation_rate=2)",
        "build": None,
        "attrs": ["rank", "strides", "dilation_rate"],
        "shapes": [("compute_output_shape", [2, 9, 9, 3])],
    },
    "max_pool": {
        "make": "layers.MaxPooling2D(padding='same')",
        "build": None,
        "attrs": ["pool_mode", "pool_size", "strides"],
        "shapes": [("compute_output_shape", [None, 5, 7, 3])],
    },
    "average_pool": {
        "make": "layers.AveragePooling1D(3, strides=2)",
        "build": None,
        "attrs": ["pool_mode", "pool_size", "strides"],
        "shapes": [("compute_output_shape", [4, 9, 2])],
    },
    "batch_norm_unbuilt": {
        "make": "layers.BatchNormalization(renorm_momentum=0.9)",
        "build": None,
        "attrs": ["renorm", "renorm_clipping", "renorm_momentum", "gamma", "beta", "moving_mean"],
    },
    "batch_norm": {
        "make": "layers.BatchNormalization(center=False)",
        "build": (2, 3),
        "attrs": ["gamma=values", "beta", "moving_mean=values", "moving_variance=values"],
    },
    "normalization_adapted": {
        "make": "layers.Normalization()",
        "adapt": [[1.0, 2.0, 0.0], [3.0, 6.0, 1.0], [5.0, 7.0, 5.0]],
        "build": None,
        "attrs": ["mean=values", "variance=values", "count=values", "adapt_mean=values"],
    },
    "normalization_axis_1": {
        "make": "layers.Normalization(axis=1)",
        "adapt": [[[1.0, 2.0], [3.0, 6.0]], [[5.0, 8.0], [0.0, 1.0]]],
        "build": None,
        "attrs": ["mean=values", "variance=values"],
    },
    "normalization_given": {
        "make": "layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0])",
        "build": (3, 2),
        "attrs": ["mean=values", "variance=values"],
    },
    "normalization_unbuilt": {
        "make": "layers.Normalization()",
        "build": None,
        "attrs": ["mean"],
    },
    "embedding": {
        "make": "layers.Embedding(5, 3)",
        "build": (2, 4),
        "attrs": ["embeddings"],
        "shapes": [("compute_output_shape", [2, 4])],
    },
    "multi_head_attention_unbuilt": {
        "make": "layers.MultiHeadAttention(2, 4, attention_axes=[1])",
        "build": None,
        "attrs": ["attention_axes"],
    },
    "multi_head_attention": {
        "make": "layers.MultiHeadAttention(2, 4)",
        "build": (2, 3, 8),
        "two_inputs": True,
        "attrs": ["attention_axes"],
    },
    "group_query_attention": {
        "make": "layers.GroupQueryAttention(4, 4, 2)",
        "build": None,
        "attrs": ["use_gate", "sliding_window"],
    },
    "additive_attention": {
        "make": "layers.AdditiveAttention()",
        "build": None,
        "attrs": ["score_mode", "use_scale"],
    },
    "resizing": {
        "make": "layers.Resizing(4, 5, data_format='channels_first')",
        "build": None,
        "attrs": ["height_axis", "width_axis"],
    },
    "resizing_last": {
        "make": "layers.Resizing(4, 5)",
        "build": None,
        "attrs": ["height_axis", "width_axis"],
    },
    "bidirectional": {
        "make": "layers.Bidirectional(layers.LSTM(3, return_sequences=True))",
        "build": (2, 4, 5),
        "attrs": ["stateful", "states", "return_sequences"],
    },
    "identity": {
        "make": "layers.Identity()",
        "build": None,
        "attrs": [],
        "shapes": [("compute_output_shape", [2, 3])],
    },
    "conv_lstm_1d": {
        "make": "layers.ConvLSTM1D(4, 3, strides=2, padding='same', dropout=0.2,"
        " recurrent_dropout=0.1, kernel_regularizer='l2', bias_constraint='non_neg',"
        " activation='relu', unit_forget_bias=False)",
        "build": (2, 3, 8, 2),
        "attrs": [*_CONV_ATTRS, *_RNN_CELL_ATTRS, "state_size", "single_state", "states"],
    },
    "conv_lstm_2d": {
        "make": "layers.ConvLSTM2D(4, (3, 2), dilation_rate=2, data_format='channels_first',"
        " return_sequences=True)",
        "build": (2, 3, 2, 8, 8),
        "attrs": [*_CONV_ATTRS, *_RNN_CELL_ATTRS, "state_size", "single_state"],
    },
    "conv_lstm_3d": {
        "make": "layers.ConvLSTM3D(2, 3, recurrent_initializer='glorot_normal')",
        "build": (1, 2, 5, 5, 5, 1),
        "attrs": [*_CONV_ATTRS, *_RNN_CELL_ATTRS],
    },
    "lstm": {
        "make": "layers.LSTM(3, recurrent_dropout=0.1, return_state=True)",
        "build": (2, 4, 5),
        "attrs": [
            "state_size",
            "single_state",
            "states",
            "cell.implementation",
            "cell.dropout_mask_count",
            "units",
        ],
    },
    "gru": {
        "make": "layers.GRU(3, reset_after=False, dropout=0.5)",
        "build": (2, 4, 5),
        "attrs": ["state_size", "single_state", "cell.implementation", "reset_after"],
    },
    "simple_rnn": {
        "make": "layers.SimpleRNN(3, activation='relu')",
        "build": None,
        "attrs": ["state_size", "single_state", "states", "activation"],
    },
    "stacked_rnn": {
        "make": "layers.RNN([layers.GRUCell(3), layers.LSTMCell(2)])",
        "build": None,
        "attrs": ["single_state", "states"],
    },
    "cells": {
        "make": "layers.GRUCell(3, recurrent_dropout=0.2)",
        "build": None,
        "attrs": ["implementation", "dropout_mask_count"],
    },
}


def _keras_values(cases):
    code = (
        _DESCRIBE
        + "\nimport json, sys\nfrom keras import layers\n"
        + "cases = json.loads(sys.stdin.read())\n"
        + "print(json.dumps({k: run_case(layers, c) for k, c in cases.items()}))\n"
    )
    return testing.keras_json(code, backend="numpy", input=json.dumps(cases))


@pytest.fixture(scope="module")
def keras_side():
    return _keras_values(CASES)


def _mb_values(case):
    namespace = {}
    exec(_DESCRIBE, namespace)
    return json.loads(json.dumps(namespace["run_case"](mb_layers.layers, case)))


@pytest.mark.parametrize("label", sorted(CASES))
def test_attributes_equal_keras(label, keras_side):
    assert _mb_values(CASES[label]) == keras_side[label]


def test_cells_draw_one_dropout_mask_per_gate_under_recurrent_dropout_as_keras():
    x = np.ones((64, 8), "float32")
    h = np.ones((64, 3), "float32")
    cell = mb_layers.layers.LSTMCell(3, dropout=0.5, recurrent_dropout=0.25, seed=1)
    masks = cell.get_dropout_mask(x)
    assert isinstance(masks, list) and len(masks) == 4  # i, f, c, o
    assert cell.get_dropout_mask(x) is masks  # cached for the whole sequence
    values = np.stack([np.asarray(m) for m in masks])
    assert set(np.unique(values)) == {0.0, 2.0}
    assert abs((values == 0).mean() - 0.5) < 0.05
    assert not np.array_equal(values[0], values[1])  # each gate its own draw
    recurrent = np.stack([np.asarray(m) for m in cell.get_recurrent_dropout_mask(h)])
    assert set(np.unique(recurrent)) == {0.0, np.float32(1 / 0.75)}
    cell.reset_dropout_mask()
    cell.reset_recurrent_dropout_mask()
    assert cell._dropout_mask is None and cell._recurrent_dropout_mask is None
    single = mb_layers.layers.SimpleRNNCell(3, dropout=0.5)
    assert single.get_dropout_mask(x).shape == (64, 8)
    assert single.get_recurrent_dropout_mask(h) is None  # no recurrent dropout


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_recurrent_dropout_with_a_mask_per_gate_trains_and_is_off_in_inference(kind):
    x = np.random.default_rng(0).standard_normal((4, 5, 3)).astype("float32")
    layer = getattr(mb_layers.layers, kind)(6, dropout=0.3, recurrent_dropout=0.3, seed=2)
    assert layer.cell.implementation == 1
    inference = np.asarray(layer(x))
    np.testing.assert_array_equal(np.asarray(layer(x)), inference)
    trained = np.asarray(layer(x, training=True))
    assert trained.shape == inference.shape and not np.allclose(trained, inference)
    assert layer.cell._dropout_mask is None  # reset after the sequence, as Keras


def _keras_json(code):
    """The JSON a Keras 3 script (NumPy backend) prints on its last line."""
    done = testing.run_keras(code, backend="numpy")
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_category_encoding_counts_weighted_occurrences_as_keras():
    tokens = [[0, 1, 1, 3], [2, 2, 0, 1]]
    weights = [[0.5, 1.0, 2.0, 0.25], [1.0, 3.0, 0.5, 4.0]]
    expected = _keras_json(
        "import json, numpy as np\nfrom keras import layers\n"
        "layer = layers.CategoryEncoding(num_tokens=4, output_mode='count')\n"
        f"out = layer(np.array({tokens}), count_weights=np.array({weights}, 'float32'))\n"
        "print(json.dumps(np.asarray(out).tolist()))\n"
    )
    layer = mb_layers.layers.CategoryEncoding(num_tokens=4, output_mode="count")
    out = layer(np.array(tokens), count_weights=np.array(weights, "float32"))
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6)
    with pytest.raises(ValueError, match="only with output_mode='count'"):
        mb_layers.layers.CategoryEncoding(4, output_mode="one_hot")(
            np.array(tokens), count_weights=np.array(weights, "float32")
        )


@pytest.mark.parametrize(
    "make",
    [
        "StringLookup(mask_token='')",
        "IntegerLookup(num_oov_indices=2)",
        "TextVectorization(max_tokens=6)",
    ],
)
def test_lookup_layers_read_the_vocabulary_file_keras_writes_for_an_adapted_layer(make, tmp_path):
    if make.startswith("IntegerLookup"):
        data = "np.array([[3, 3, 7], [9, 3, 7]])"
        probe = np.array([[7, 3, 1]])
    else:
        data = "np.array(['a b b', 'c a b'])" if "Text" in make else "np.array(['a', 'b', 'b'])"
        probe = np.array(["b a z"]) if "Text" in make else np.array(["b", "z", ""])
    expected = _keras_json(
        "import json, numpy as np, tensorflow as tf\nfrom keras import layers\n"
        f"layer = layers.{make}\nlayer.adapt({data})\n"
        f"layer.save_assets({str(tmp_path)!r})\n"
        f"print(json.dumps(np.asarray(layer(tf.constant({probe.tolist()!r}))).tolist()))\n"
    )
    assert (tmp_path / "vocabulary.txt").exists()
    layer = eval(f"mb_layers.layers.{make}")
    layer.load_assets(str(tmp_path))
    np.testing.assert_array_equal(np.asarray(layer(probe)), expected)
    # A layer whose vocabulary is in its config (given, or adapted by mb) writes no file.
    given = mb_layers.layers.StringLookup(vocabulary=["a", "b"])
    given.save_assets(str(tmp_path / "given"))
    assert not (tmp_path / "given").exists()
