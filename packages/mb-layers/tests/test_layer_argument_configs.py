"""Layer configs serialise initializers, regularizers, constraints and activations as Keras 3.

The entries come from one helper (``mb_layers.layers._arguments``); Keras, in a
subprocess, rebuilds each layer from mb's config and writes its own config back:
the argument entries must be equal, in the same order.
"""

import json

import pytest

from mb_layers import _registry, layers, regularizers
from mb_layers.layers._arguments import serialized_arguments
from mb_ops import testing

_SUFFIXES = ("_initializer", "_regularizer", "_constraint", "activation")

_KERAS_CONFIGS = r"""
import json, sys
import keras
configs = json.loads(sys.stdin.read())
print(json.dumps([keras.layers.deserialize(c).get_config() for c in configs]))
"""


def _arguments(config):
    return [(k, v) for k, v in config.items() if k.endswith(_SUFFIXES)]


def _layers():
    # Factors exact in float32: Keras keeps them as float32, mb as given.
    l1, l2 = regularizers.L1(0.25), regularizers.L2(0.5)
    weights = {"kernel_regularizer": l2, "bias_constraint": "non_neg"}
    return [
        layers.Dense(3, activation="relu", activity_regularizer=l1, **weights),
        layers.Conv2D(2, 3, kernel_initializer="he_normal", **weights),
        layers.SeparableConv1D(2, 3, pointwise_regularizer=l1, depthwise_constraint="max_norm"),
        layers.EinsumDense("ab,bc->ac", 4, bias_axes="c", **weights),
        layers.Embedding(5, 2, embeddings_regularizer=l1, activity_regularizer=l2),
        layers.PReLU(alpha_regularizer=l2, alpha_constraint="unit_norm"),
        layers.BatchNormalization(gamma_regularizer=l2, moving_variance_initializer="ones"),
        layers.LSTMCell(3, recurrent_regularizer=l1, recurrent_constraint="non_neg"),
        layers.GRU(3, activity_regularizer=l2, recurrent_activation="hard_sigmoid"),
        layers.MultiHeadAttention(2, 4, kernel_regularizer=l2),
    ]


def test_argument_entries_match_keras():
    built = _layers()
    configs = [_registry.serialize(layer) for layer in built]
    keras_configs = testing.keras_json(_KERAS_CONFIGS, backend="numpy", input=json.dumps(configs))
    for layer, config, keras_config in zip(built, configs, keras_configs, strict=True):
        ours = _arguments(config["config"])
        assert ours, type(layer).__name__
        assert ours == _arguments(keras_config), type(layer).__name__


def test_an_argument_of_unknown_kind_is_refused_with_its_name():
    layer = layers.Dense(2)
    layer.kernel_shape = (2, 2)
    with pytest.raises(ValueError, match="'kernel_shape'"):
        serialized_arguments(layer, "kernel_shape")
