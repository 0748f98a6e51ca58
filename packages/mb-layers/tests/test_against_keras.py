"""Numbers of each layer family against Keras 3 (same config, weights and inputs).

Keras reads the configs mb writes, so these tests also check that layer configs
interchange. Keras runs once per family, in a subprocess on its NumPy backend.
"""

import numpy as np
import pytest

from mb_layers import layers
from mb_layers.testing import compare_with_keras

RNG = np.random.default_rng(42)


def _data(*shape):
    return RNG.standard_normal(shape).astype("float32")


def _built(layer, inputs):
    layer(*inputs) if isinstance(inputs, tuple) else layer(inputs)
    # Positive values keep variances (BatchNormalization) meaningful.
    layer.set_weights([np.abs(_data(*w.shape)) + 0.1 for w in layer.weights])
    return layer


def test_core_and_activation_layers_match_keras():
    x2, x3 = _data(4, 6), _data(2, 3, 6)
    cases = [
        (_built(layers.Dense(5, activation="relu"), x2), x2, {}),
        (_built(layers.Dense(3, use_bias=False, activation="softmax"), x3), x3, {}),
        (_built(layers.EinsumDense("abc,cd->abd", (3, 4), bias_axes="d"), x3), x3, {}),
        (_built(layers.EinsumDense("...b,bc->...c", 4, activation="tanh"), x3), x3, {}),
        (_built(layers.Embedding(7, 3), np.array([[1, 2, 6]])), np.array([[1, 2, 6]]), {}),
        (layers.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.2), x2, {}),
        (layers.LeakyReLU(0.2), x2, {}),
        (layers.ELU(0.7), x2, {}),
        (layers.Softmax(axis=1), x3, {}),
        (_built(layers.PReLU(shared_axes=[1]), x3), x3, {}),
        (layers.Activation("gelu"), x2, {}),
        (layers.Activation("hard_silu"), x2, {}),
        (layers.Masking(0.0), x3, {}),
        (layers.Dropout(0.5), x2, {"training": False}),
    ]
    compare_with_keras(cases, atol=1e-5)


def test_reshaping_layers_match_keras():
    x1, x2, x3 = _data(2, 5, 3), _data(2, 4, 5, 3), _data(2, 3, 4, 2, 3)
    cases = [
        (layers.Cropping1D((1, 2)), x1, {}),
        (layers.Cropping2D(((1, 0), (2, 1))), x2, {}),
        (layers.Cropping3D(((1, 0), (1, 1), (0, 1))), x3, {}),
        (layers.Flatten(), x2, {}),
        (layers.Permute((2, 1)), x1, {}),
        (layers.RepeatVector(3), _data(2, 4), {}),
        (layers.Reshape((3, -1)), x1, {}),
        (layers.UpSampling1D(3), x1, {}),
        (layers.UpSampling2D((2, 3)), x2, {}),
        (layers.UpSampling2D(2, interpolation="bilinear"), x2, {}),
        (layers.UpSampling3D((1, 2, 2)), x3, {}),
        (layers.ZeroPadding1D((1, 2)), x1, {}),
        (layers.ZeroPadding2D(((1, 0), (0, 2))), x2, {}),
        (layers.ZeroPadding3D(1), x3, {}),
    ]
    compare_with_keras(cases)


def test_merging_layers_match_keras():
    a, b = _data(3, 4), _data(3, 4)
    c, d = _data(2, 3, 4), _data(2, 5, 4)
    cases = [
        (layers.Add(), [a, b], {}),
        (layers.Subtract(), [a, b], {}),
        (layers.Multiply(), [a, b, a], {}),
        (layers.Average(), [a, b], {}),
        (layers.Maximum(), [a, b], {}),
        (layers.Minimum(), [a, b], {}),
        (layers.Concatenate(axis=1), [c, d], {}),
        (layers.Dot(axes=1), [a, b], {}),
        (layers.Dot(axes=(2, 2), normalize=True), [c, d], {}),
        (layers.Dot(axes=(1, 1)), [c, _data(2, 3, 6)], {}),
    ]
    compare_with_keras(cases)


def test_normalization_layers_match_keras():
    x = _data(4, 5, 6) * 3 + 1
    image = _data(2, 4, 4, 6)
    with pytest.warns(UserWarning, match="rms_scaling=True. is deprecated"):  # as Keras 3.15
        rms_scaling = layers.LayerNormalization(axis=[1, 2], rms_scaling=True)
    cases = [
        (_built(layers.BatchNormalization(), x), x, {"training": False}),
        (_built(layers.BatchNormalization(axis=1, epsilon=0.1), x), x, {"training": True}),
        (_built(layers.LayerNormalization(), x), x, {}),
        (_built(rms_scaling, x), x, {}),
        (_built(layers.GroupNormalization(groups=3), image), image, {}),
        (_built(layers.RMSNormalization(), x), x, {}),
        (layers.UnitNormalization(axis=1), x, {}),
    ]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)


def test_pooling_layers_match_keras():
    x1, x2, x3 = _data(2, 7, 3), _data(2, 6, 7, 3), _data(1, 4, 4, 4, 2)
    cases = [
        (layers.MaxPooling1D(2, padding="same"), x1, {}),
        (layers.AveragePooling1D(3, strides=2), x1, {}),
        (layers.MaxPooling2D((2, 3)), x2, {}),
        (layers.AveragePooling2D(2, padding="same"), x2, {}),
        (layers.MaxPooling3D(2), x3, {}),
        (layers.AveragePooling3D(2), x3, {}),
        (layers.GlobalAveragePooling1D(), x1, {}),
        (layers.GlobalMaxPooling2D(keepdims=True), x2, {}),
        (layers.GlobalAveragePooling3D(), x3, {}),
        (layers.AdaptiveAveragePooling2D((2, 3)), x2, {}),
        (layers.AdaptiveMaxPooling1D(3), x1, {}),
    ]
    compare_with_keras(cases)


def test_convolution_layers_match_keras():
    x1, x2, x3 = _data(2, 9, 4), _data(2, 7, 8, 4), _data(1, 5, 5, 5, 2)
    cases = [
        (_built(layers.Conv1D(3, 3, padding="causal", dilation_rate=2), x1), x1, {}),
        (_built(layers.Conv2D(6, (3, 2), strides=2, padding="same", groups=2), x2), x2, {}),
        (_built(layers.Conv3D(2, 2, activation="relu"), x3), x3, {}),
        (_built(layers.Conv1DTranspose(3, 3, strides=2), x1), x1, {}),
        (_built(layers.Conv2DTranspose(2, 3, strides=2, padding="same"), x2), x2, {}),
        (_built(layers.DepthwiseConv1D(3, depth_multiplier=2), x1), x1, {}),
        (_built(layers.DepthwiseConv2D(3, padding="same"), x2), x2, {}),
        (_built(layers.SeparableConv1D(5, 3), x1), x1, {}),
        (_built(layers.SeparableConv2D(5, 3, depth_multiplier=2), x2), x2, {}),
    ]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)


def test_attention_layers_match_keras():
    q, v = _data(2, 3, 8), _data(2, 5, 8)
    value_mask = np.array([[True] * 5, [True, True, True, False, False]])
    cases = [
        (_built(layers.Attention(use_scale=True), [q, v]), [q, v], {}),
        (_built(layers.Attention(score_mode="concat"), [q, v]), [q, v], {}),
        (layers.Attention(), [q, v], {"mask": [None, value_mask]}),
        (_built(layers.AdditiveAttention(), [q, v]), [q, v], {}),
        (_built(layers.MultiHeadAttention(2, 4), (q, v)), (q, v), {}),
        (
            _built(layers.MultiHeadAttention(2, 3, value_dim=5, output_shape=6), (q, v)),
            (q, v),
            {"use_causal_mask": True},
        ),
        (_built(layers.GroupedQueryAttention(4, 4, 2), (q, v)), (q, v), {"value_mask": value_mask}),
    ]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)


def test_recurrent_layers_match_keras():
    x = _data(2, 5, 3)
    mask = np.array([[True] * 5, [True, True, True, False, False]])

    def rnn(layer):
        layer(x)
        layer.set_weights([_data(*w.shape) * 0.5 for w in layer.weights])
        return layer

    cases = [
        (rnn(layers.SimpleRNN(4)), x, {}),
        (rnn(layers.LSTM(4, return_sequences=True)), x, {}),
        (rnn(layers.LSTM(3, return_state=True, go_backwards=True)), x, {}),
        (rnn(layers.GRU(4)), x, {"mask": mask}),
        (rnn(layers.GRU(4, reset_after=False, return_sequences=True)), x, {"mask": mask}),
        (rnn(layers.RNN([layers.LSTMCell(3), layers.SimpleRNNCell(2)])), x, {}),
        (rnn(layers.Bidirectional(layers.LSTM(3, return_sequences=True))), x, {}),
        (rnn(layers.Bidirectional(layers.GRU(2), merge_mode="sum")), x, {}),
        (rnn(layers.TimeDistributed(layers.Dense(2))), x, {}),
    ]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)


def test_preprocessing_layers_match_keras():
    image = np.abs(_data(2, 6, 5, 3))
    x = _data(4, 3)
    cases = [
        (layers.Rescaling(1 / 255.0, offset=-0.5), image, {}),
        (layers.Normalization(mean=[0.5, 1.0, -1.0], variance=[4.0, 1.0, 0.25]), x, {}),
        (
            layers.Normalization(mean=[0.5, 1.0, -1.0], variance=[4.0, 1.0, 0.25], invert=True),
            x,
            {},
        ),
        (layers.Resizing(3, 4), image, {}),
        (layers.Resizing(4, 4, interpolation="nearest", crop_to_aspect_ratio=True), image, {}),
        (layers.CenterCrop(4, 3), image, {}),
        (layers.CategoryEncoding(5, output_mode="one_hot"), np.array([0, 4, 2]), {}),
        (layers.CategoryEncoding(5), np.array([[0, 4], [2, 2]]), {}),
        (layers.CategoryEncoding(5, output_mode="count"), np.array([[0, 4, 4], [2, 2, 1]]), {}),
        (layers.Discretization([-0.5, 0.0, 0.5]), x, {}),
        (layers.RandomFlip(), image, {"training": False}),
    ]
    compare_with_keras(cases)


def test_wrappers_match_keras():
    x = _data(3, 4)
    spectral = layers.SpectralNormalization(layers.Dense(5))
    spectral(x)
    # Keras's order: the wrapped kernel (tracked first), vector_u, then the bias.
    assert [tuple(w.shape) for w in spectral.weights] == [(4, 5), (1, 5), (5,)]
    spectral.set_weights([_data(*w.shape) for w in spectral.weights])
    cases = [(spectral, x, {"training": True})]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)


def test_conv_lstm_layers_match_keras():
    x1, x2 = _data(2, 3, 6, 2), _data(2, 3, 5, 4, 2)

    def built(layer, x):
        layer(x)
        layer.set_weights([_data(*w.shape) * 0.3 for w in layer.weights])
        return layer

    cases = [
        (built(layers.ConvLSTM1D(3, 3), x1), x1, {}),
        (built(layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True), x2), x2, {}),
        (built(layers.ConvLSTM2D(2, (2, 3), strides=2, return_state=True), x2), x2, {}),
    ]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)


def test_reversible_embedding_matches_keras_both_ways():
    tokens = np.array([[1, 4, 0], [2, 2, 3]])
    vectors = _data(2, 3, 4)
    cases = []
    for kwargs in ({}, {"tie_weights": False, "logit_soft_cap": 2.0}):
        layer = _built(layers.ReversibleEmbedding(5, 4, **kwargs), tokens)
        cases.append((layer, tokens, {}))
        cases.append((layer, vectors, {"reverse": True}))
    compare_with_keras(cases, atol=1e-5)
    assert [w.name for w in cases[2][0].weights] == ["embeddings", "reverse_embeddings"]
