"""Models built by the same code in Keras 3 and in mb, for the interchange tests.

Nothing here imports Keras or mb: each builder takes a namespace ``K`` with
``Input``, ``layers``, ``Model``, ``Sequential`` and ``register`` (the
``register_keras_serializable`` of that side). The Keras side runs this file in
a subprocess (`keras_side.py`); the tests run it in-process with mb.
"""

import numpy as np

_CUSTOM = {}


def custom_classes(K):
    """The registered custom layer and subclassed model (defined once per side)."""
    key = id(K.layers)
    if key in _CUSTOM:
        return _CUSTOM[key]

    @K.register(package="zoo")
    class Block(K.layers.Layer):
        """Own weight, sub-layers in attributes (one private), a list and a nested list."""

        def __init__(self, units=4, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.proj = K.layers.Dense(units, name="p")
            self._hidden = K.layers.Dense(units, activation="tanh")
            self.stack = [
                K.layers.Dense(units),
                K.layers.Dense(units),
                [K.layers.LayerNormalization()],
            ]

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(self.units,), initializer="ones", name="scale")
            inner = (*input_shape[:-1], self.units)
            self.proj.build(input_shape)
            self._hidden.build(inner)
            for layer in (*self.stack[:2], self.stack[2][0]):
                layer.build(inner)

        def call(self, x):
            h = self._hidden(self.proj(x)) * self.scale
            for layer in self.stack[:2]:
                h = layer(h)
            return self.stack[2][0](h)

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    @K.register(package="zoo")
    class Tower(K.Model):
        """A subclassed model holding a custom layer, an RNN wrapper and normalization."""

        def __init__(self, units=4, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.block = Block(units)
            self.rnn = K.layers.Bidirectional(K.layers.LSTM(3))
            self.norm = K.layers.BatchNormalization()
            self.head = K.layers.Dense(2)

        def build(self, input_shape):
            self.block.build(input_shape)
            inner = (*input_shape[:-1], self.units)
            self.rnn.build(inner)
            self.norm.build((input_shape[0], 6))
            self.head.build((input_shape[0], 6))

        def call(self, x):
            return self.head(self.norm(self.rnn(self.block(x))))

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    _CUSTOM[key] = (Block, Tower)
    return Block, Tower


def _mlp(K):
    return K.Sequential(
        [
            K.Input((4,)),
            K.layers.Dense(8, activation="relu"),
            K.layers.Dense(3, activation="softmax"),
        ],
        name="mlp",
    )


def _shared(K):
    a, b = K.Input((4,), name="in_a"), K.Input((4,), name="in_b")
    shared = K.layers.Dense(5, name="shared")
    merged = K.layers.Concatenate(name="concat")([shared(a), shared(b)])
    head = K.layers.Dense(2, name="head")(merged)
    aux = K.layers.Dense(1, activation="sigmoid", name="aux")(merged)
    return K.Model([a, b], [head, aux], name="two_heads")


def _dict_io(K):
    inputs = {"left": K.Input((3,), name="left"), "right": K.Input((2,), name="right")}
    both = K.layers.Concatenate()([inputs["left"], inputs["right"]])
    return K.Model(inputs, {"score": K.layers.Dense(1, name="score")(both)}, name="dicts")


def _rnns(K):
    L = K.layers
    return K.Sequential(
        [
            K.Input((6, 4)),
            L.LSTM(5, return_sequences=True),
            L.GRU(4, return_sequences=True),
            L.Bidirectional(L.LSTM(3, return_sequences=True)),
            L.Bidirectional(L.GRU(3, reset_after=False), merge_mode="sum"),
            L.RepeatVector(2),
            L.SimpleRNN(2),
        ],
        name="rnns",
    )


def _conv(K):
    L = K.layers
    return K.Sequential(
        [
            K.Input((8, 8, 3)),
            L.Conv2D(4, 3, padding="same"),
            L.BatchNormalization(),
            L.ReLU(),
            L.MaxPooling2D(),
            L.SeparableConv2D(5, 3),
            L.DepthwiseConv2D(2),
            L.Flatten(),
            L.Dropout(0.3),
            L.Dense(2),
        ],
        name="conv",
    )


def _attention(K):
    L = K.layers
    ids = K.Input((7,), dtype="int32", name="ids")
    embedded = L.Embedding(20, 8)(ids)
    attended = L.MultiHeadAttention(2, 4)(embedded, embedded)
    h = L.LayerNormalization()(attended + embedded)
    inner = K.Sequential([L.Dense(6, activation="gelu"), L.Dense(8)], name="inner")
    return K.Model(ids, L.GlobalAveragePooling1D()(inner(h)), name="attention")


def _time(K):
    L = K.layers
    return K.Sequential(
        [
            K.Input((6, 4)),
            L.TimeDistributed(L.Dense(3)),
            L.Conv1D(4, 2),
            L.GroupNormalization(2),
            L.GRU(2),
        ],
        name="time",
    )


def _nested(K):
    x = K.Input((4,), name="x")
    sub = K.Sequential([K.Input((4,)), K.layers.Dense(4, activation="tanh")], name="sub")
    first = sub(x)
    return K.Model(x, [first, sub(first)], name="nested")


def _tower(K):
    return custom_classes(K)[1](name="tower")


def _bfloat16(K):
    L = K.layers
    return K.Sequential(
        [K.Input((4,)), L.Dense(3, dtype="bfloat16"), L.Dense(2, dtype="float32")], name="half"
    )


def _conv1d_family(K):
    L = K.layers
    return K.Sequential(
        [
            K.Input((10, 3)),
            L.Conv1D(4, 3),
            L.DepthwiseConv1D(2),
            L.SeparableConv1D(3, 2),
            L.Conv1DTranspose(2, 3),
            L.LayerNormalization(),
            L.GlobalMaxPooling1D(),
            L.Dense(2),
        ],
        name="conv1d_family",
    )


def _conv3d_family(K):
    L = K.layers
    return K.Sequential(
        [
            K.Input((4, 4, 4, 2)),
            L.Conv3D(2, 2),
            L.Conv3DTranspose(2, 2),
            L.BatchNormalization(),
            L.Flatten(),
            L.Dense(2),
        ],
        name="conv3d_family",
    )


def _conv_lstm(K):
    L = K.layers
    return K.Sequential(
        [K.Input((4, 6, 2)), L.ConvLSTM1D(3, 3), L.Flatten(), L.Dense(2)], name="conv_lstm"
    )


def _cells(K):
    L = K.layers
    ids = K.Input((6,), dtype="int32")
    h = L.Embedding(10, 4)(ids)
    h = L.TimeDistributed(L.Dense(3))(h)
    h = L.RNN(L.LSTMCell(3), return_sequences=True)(h)
    h = L.RNN(L.GRUCell(2))(h)
    return K.Model(ids, L.Dense(2)(h), name="cells")


def _misc(K):
    L = K.layers
    return K.Sequential(
        [
            K.Input((6,)),
            L.EinsumDense("ab,bc->ac", 4, bias_axes="c"),
            L.PReLU(),
            L.SpectralNormalization(L.Dense(3)),
            L.Dense(2),
        ],
        name="misc",
    )


def _grouped_attention(K):
    L = K.layers
    x = K.Input((5, 4))
    attended = L.GroupQueryAttention(2, 2, 1)(x, x)
    scored = L.Attention(use_scale=True)([attended, x])
    return K.Model(x, L.AdditiveAttention()([scored, x]), name="grouped_attention")


BUILDERS = {
    "mlp": _mlp,
    "shared": _shared,
    "dict_io": _dict_io,
    "rnns": _rnns,
    "conv": _conv,
    "attention": _attention,
    "time": _time,
    "nested": _nested,
    "tower": _tower,
    "bfloat16": _bfloat16,
    "conv1d_family": _conv1d_family,
    "conv3d_family": _conv3d_family,
    "conv_lstm": _conv_lstm,
    "cells": _cells,
    "misc": _misc,
    "grouped_attention": _grouped_attention,
}
# Absolute tolerance of each model's outputs (float32 math; bfloat16 weights round).
TOLERANCE = {"bfloat16": 2e-2}


def inputs(name):
    """The inputs `name` is called on (fixed seed): an array, a list or a dict."""
    rng = np.random.default_rng(7)
    if name in ("mlp", "nested", "bfloat16"):
        return rng.normal(size=(3, 4)).astype("float32")
    if name == "shared":
        return [rng.normal(size=(3, 4)).astype("float32") for _ in range(2)]
    if name == "dict_io":
        return {
            "left": rng.normal(size=(3, 3)).astype("float32"),
            "right": rng.normal(size=(3, 2)).astype("float32"),
        }
    if name in ("rnns", "time"):
        return rng.normal(size=(3, 6, 4)).astype("float32")
    if name == "conv":
        return rng.normal(size=(2, 8, 8, 3)).astype("float32")
    if name == "attention":
        return rng.integers(0, 20, size=(3, 7)).astype("int32")
    if name in ("tower", "grouped_attention"):
        return rng.normal(size=(3, 5, 4)).astype("float32")
    if name == "conv1d_family":
        return rng.normal(size=(2, 10, 3)).astype("float32")
    if name == "conv3d_family":
        return rng.normal(size=(2, 4, 4, 4, 2)).astype("float32")
    if name == "conv_lstm":
        return rng.normal(size=(2, 4, 6, 2)).astype("float32")
    if name == "cells":
        return rng.integers(0, 10, size=(3, 6)).astype("int32")
    if name == "misc":
        return rng.normal(size=(3, 6)).astype("float32")
    raise KeyError(name)


def randomize(model, seed=3):
    """Gives every weight random values (positive for variances) so that loading shows."""
    rng = np.random.default_rng(seed)
    values = []
    for w in model.weights:
        shape = tuple(w.shape)
        value = (
            rng.uniform(0.5, 1.5, size=shape) if "variance" in w.path else rng.normal(size=shape)
        )
        values.append(np.asarray(value * 0.5, dtype="float32"))
    model.set_weights(values)


def flat_outputs(outputs):
    """A prediction as a list of arrays (dict outputs in key order)."""
    if isinstance(outputs, dict):
        return [np.asarray(outputs[k]) for k in sorted(outputs)]
    if isinstance(outputs, (list, tuple)):
        return [np.asarray(o) for o in outputs]
    return [np.asarray(outputs)]
