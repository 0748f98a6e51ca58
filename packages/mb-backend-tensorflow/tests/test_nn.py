"""nn: activations against NumPy formulas; image, loss and attention ops against Keras 3
running on TensorFlow, in both channels_last and channels_first.

Tolerance: rtol/atol 1e-5 for float32 unless a test says otherwise.
"""

import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import numpy as np
import pytest
import tensorflow as tf
from _helpers import assert_close

from mb_backend_tensorflow import nn

RNG = np.random.default_rng(1)
X = RNG.uniform(-3, 3, (2, 5)).astype("float32")


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "sigmoid": _sigmoid,
    "sparse_sigmoid": lambda x: np.clip(0.5 * (x + 1), 0, 1),
    "tanh": np.tanh,
    "tanh_shrink": lambda x: x - np.tanh(x),
    "softplus": lambda x: np.log1p(np.exp(x)),
    "softsign": lambda x: x / (1 + np.abs(x)),
    "soft_shrink": lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)),
    "sparse_plus": lambda x: np.where(x <= -1, 0, np.where(x >= 1, x, (x + 1) ** 2 / 4)),
    "silu": lambda x: x * _sigmoid(x),
    "squareplus": lambda x: (x + np.sqrt(x**2 + 4)) / 2,
    "log_sigmoid": lambda x: np.log(_sigmoid(x)),
    "leaky_relu": lambda x: np.where(x > 0, x, 0.2 * x),
    "hard_sigmoid": lambda x: np.clip(x / 6 + 0.5, 0, 1),
    "hard_silu": lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "selu": lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)),
    "celu": lambda x: np.maximum(x, 0) + np.minimum(0, np.expm1(x)),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "hard_shrink": lambda x: np.where(np.abs(x) > 0.5, x, 0),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_matches_formula(name):
    assert_close(getattr(nn, name)(X), ACTIVATIONS[name](X.astype("float64")))


def test_parametrized_activations():
    x = X.astype("float64")
    assert_close(nn.elu(X, alpha=0.5), np.where(x > 0, x, 0.5 * np.expm1(x)))
    assert_close(nn.leaky_relu(X, negative_slope=0.1), np.where(x > 0, x, 0.1 * x))
    assert_close(nn.threshold(X, 0.3, -1.0), np.where(x > 0.3, x, -1.0))
    assert_close(nn.glu(X[:, :4]), x[:, :2] * _sigmoid(x[:, 2:4]))
    gelu = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    assert_close(nn.gelu(X), gelu)
    assert nn.relu(np.array([-1, 2])).dtype == tf.float32  # ints compute in floatx


@pytest.mark.parametrize("axis", [-1, 0, None, (0, 1)])
def test_softmax_and_log_softmax_over_axes(axis):
    x = X.astype("float64")
    ax = tuple(range(x.ndim)) if axis is None else axis
    e = np.exp(x - x.max(axis=ax, keepdims=True))
    soft = e / e.sum(axis=ax, keepdims=True)
    assert_close(nn.softmax(X, axis=axis), soft)
    assert_close(nn.log_softmax(X, axis=axis), np.log(soft), atol=1e-5)


def _numpy_sparsemax(z):
    out = np.zeros_like(z)
    for i, row in enumerate(z):
        s = np.sort(row)[::-1]
        k = np.arange(1, len(row) + 1)
        support = 1 + k * s > np.cumsum(s)
        tau = (np.cumsum(s)[support][-1] - 1) / k[support][-1]
        out[i] = np.maximum(row - tau, 0)
    return out


def test_sparsemax_matches_the_projection_formula():
    # (Keras 3.15's TF sparsemax sums the cumulative sums into tau; we follow the paper.)
    x = X.astype("float64")
    assert_close(nn.sparsemax(X), _numpy_sparsemax(x))
    assert_close(nn.sparsemax(X, axis=0), _numpy_sparsemax(x.T).T)
    np.testing.assert_allclose(np.sum(nn.sparsemax(X), axis=-1), 1.0, rtol=1e-6)


# ----- image ops in both layouts, against Keras (channels_last) ---------------------------


def _first(x):
    return np.moveaxis(np.asarray(x), -1, 1)


def _both_layouts(ours, reference, x, *args, **kwargs):
    """ours(channels_last) == reference and ours(channels_first) == transposed reference."""
    expected = reference(tf.constant(x), *args, data_format="channels_last", **kwargs)
    expected = np.asarray(expected)
    assert_close(ours(x, *args, data_format="channels_last", **kwargs), expected, atol=1e-4)
    out_first = ours(_first(x), *args, data_format="channels_first", **kwargs)
    assert_close(out_first, _first(expected), atol=1e-4)


CONV_CASES = [
    ((2, 9, 3), (3, 3, 4), dict(strides=2, padding="same")),
    ((2, 9, 3), (3, 1, 6), dict(dilation_rate=2)),  # grouped: 3 groups
    ((1, 8, 7, 2), (3, 3, 2, 5), dict(strides=(2, 1), padding="valid")),
    ((1, 8, 7, 2), (3, 2, 2, 4), dict(dilation_rate=(2, 1), padding="same")),
    ((1, 9, 9, 4), (3, 3, 2, 4), dict(strides=2, dilation_rate=2)),  # grouped, strided+dilated
    ((1, 5, 6, 4, 2), (2, 3, 2, 2, 3), dict(strides=1, padding="same")),
]


@pytest.mark.parametrize(("x_shape", "k_shape", "kwargs"), CONV_CASES)
def test_conv_matches_keras_in_both_layouts(x_shape, k_shape, kwargs):
    x = RNG.standard_normal(x_shape).astype("float32")
    k = RNG.standard_normal(k_shape).astype("float32")
    if kwargs.get("strides", 1) != 1 and kwargs.get("dilation_rate", 1) != 1:
        # Keras's TF backend refuses stride+dilation; check against a dense NumPy conv.
        expected = _numpy_conv2d(x, k, 2, 2)
        assert_close(nn.conv(x, k, data_format="channels_last", **kwargs), expected, atol=1e-4)
        out = nn.conv(_first(x), k, data_format="channels_first", **kwargs)
        assert_close(out, _first(expected), atol=1e-4)
        return
    _both_layouts(nn.conv, keras.ops.conv, x, k, **kwargs)


def _numpy_conv2d(x, k, stride, dilation):
    kh, kw, kin, kout = k.shape
    groups = x.shape[-1] // kin
    eh, ew = (kh - 1) * dilation + 1, (kw - 1) * dilation + 1
    oh = (x.shape[1] - eh) // stride + 1
    ow = (x.shape[2] - ew) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, kout))
    per = kout // groups
    for i in range(oh):
        for j in range(ow):
            patch = x[
                :, i * stride : i * stride + eh : dilation, j * stride : j * stride + ew : dilation
            ]
            for g in range(groups):
                xs = patch[..., g * kin : (g + 1) * kin]
                ks = k[..., g * per : (g + 1) * per]
                out[:, i, j, g * per : (g + 1) * per] = np.einsum("bhwc,hwco->bo", xs, ks)
    return out


def test_conv_and_celu_trace_with_an_unknown_batch_dim():
    x = RNG.standard_normal((3, 6, 5, 2)).astype("float32")
    k = RNG.standard_normal((3, 3, 2, 4)).astype("float32")

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 5, 2], tf.float32)])
    def f(images):
        first = nn.conv(tf.transpose(images, (0, 3, 1, 2)), k, data_format="channels_first")
        return nn.conv(images, k, data_format="channels_last"), first

    last, first = f(x)
    ref = np.asarray(keras.ops.conv(tf.constant(x), k))
    assert_close(last, ref, atol=1e-4)
    assert_close(first, np.moveaxis(ref, -1, 1), atol=1e-4)
    half = tf.function(lambda v: nn.celu(v))(tf.constant(X.astype("float16")))
    assert half.dtype == tf.float16


def test_conv_rejects_an_input_smaller_than_the_kernel():
    with pytest.raises(ValueError, match="empty output"):
        nn.conv(np.ones((1, 2, 2, 1), "float32"), np.ones((3, 3, 1, 1), "float32"))


@pytest.mark.parametrize(
    ("x_shape", "k_shape", "kwargs"),
    [
        ((2, 9, 3), (3, 3, 2), dict(strides=2, padding="same")),
        ((1, 7, 8, 2), (3, 3, 2, 2), dict(dilation_rate=2)),
        ((1, 7, 8, 2), (2, 2, 2, 1), dict(strides=2)),
    ],
)
def test_depthwise_conv_matches_keras(x_shape, k_shape, kwargs):
    x = RNG.standard_normal(x_shape).astype("float32")
    k = RNG.standard_normal(k_shape).astype("float32")
    _both_layouts(nn.depthwise_conv, keras.ops.depthwise_conv, x, k, **kwargs)


def test_separable_conv_matches_keras():
    x = RNG.standard_normal((1, 7, 8, 2)).astype("float32")
    dk = RNG.standard_normal((3, 3, 2, 2)).astype("float32")
    pk = RNG.standard_normal((1, 1, 4, 5)).astype("float32")
    _both_layouts(nn.separable_conv, keras.ops.separable_conv, x, dk, pk, padding="same")


@pytest.mark.parametrize(
    ("x_shape", "k_shape", "kwargs"),
    [
        ((2, 5, 3), (3, 4, 3), dict(strides=2)),
        ((1, 4, 5, 2), (3, 3, 3, 2), dict(strides=2, padding="same")),
        ((1, 4, 5, 2), (3, 3, 3, 2), dict(strides=2, padding="valid", output_padding=1)),
        ((1, 4, 5, 2), (2, 2, 3, 2), dict(strides=1, dilation_rate=2)),
    ],
)
def test_conv_transpose_matches_keras(x_shape, k_shape, kwargs):
    x = RNG.standard_normal(x_shape).astype("float32")
    k = RNG.standard_normal(k_shape).astype("float32")
    _both_layouts(nn.conv_transpose, keras.ops.conv_transpose, x, k, **kwargs)


@pytest.mark.parametrize("shape", [(2, 9, 3), (1, 7, 6, 2), (1, 4, 5, 6, 2)])
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_pools_match_keras(shape, padding):
    x = RNG.standard_normal(shape).astype("float32")
    _both_layouts(nn.max_pool, keras.ops.max_pool, x, 2, strides=2, padding=padding)
    _both_layouts(nn.average_pool, keras.ops.average_pool, x, 3, strides=2, padding=padding)


@pytest.mark.parametrize("shape,out", [((2, 10, 3), 4), ((1, 7, 9, 2), (3, 4))])
def test_adaptive_pools_match_keras(shape, out):
    x = RNG.standard_normal(shape).astype("float32")
    _both_layouts(nn.adaptive_average_pool, keras.ops.adaptive_average_pool, x, out)
    _both_layouts(nn.adaptive_max_pool, keras.ops.adaptive_max_pool, x, out)


def test_depth_to_space_and_back():
    x = RNG.standard_normal((1, 2, 3, 8)).astype("float32")
    for fmt in ("channels_last", "channels_first"):
        data = x if fmt == "channels_last" else _first(x)
        up = nn.depth_to_space(data, 2, data_format=fmt)
        expected = keras.ops.depth_to_space(data, 2, data_format=fmt)
        assert_close(up, expected)
        assert_close(nn.space_to_depth(up, 2, data_format=fmt), data)


def test_unfold_and_fold_match_keras():
    x = RNG.standard_normal((2, 3, 6, 5)).astype("float32")
    cols = nn.unfold(x, 3, dilation=1, padding=1, stride=2)
    assert_close(cols, keras.ops.unfold(x, 3, dilation=1, padding=1, stride=2))
    folded = nn.fold(cols, (6, 5), 3, padding=1, stride=2)
    assert_close(folded, keras.ops.fold(cols, (6, 5), 3, padding=1, stride=2), atol=1e-4)


# ----- encodings, losses, statistics -------------------------------------------------------


def test_one_hot_and_multi_hot():
    labels = np.array([0, 2, -1, 1])
    np.testing.assert_array_equal(
        nn.one_hot(labels, 3), np.eye(3)[[0, 2, 1, 1]] * [[1], [1], [0], [1]]
    )
    assert nn.one_hot(labels, 3, dtype="int32").dtype == tf.int32
    np.testing.assert_array_equal(nn.one_hot(labels[:2], 3, axis=0), np.eye(3)[[0, 2]].T)
    multi = nn.multi_hot(np.array([[0, 2], [1, 1]]), 4)
    np.testing.assert_array_equal(multi, [[1, 0, 1, 0], [0, 1, 0, 0]])


def test_crossentropies_match_keras():
    target = np.eye(4, dtype="float32")[[0, 3, 1]]
    logits = RNG.standard_normal((3, 4)).astype("float32")
    probs = np.asarray(keras.ops.softmax(logits))
    for from_logits, out in ((True, logits), (False, probs)):
        assert_close(
            nn.categorical_crossentropy(target, out, from_logits=from_logits),
            keras.ops.categorical_crossentropy(target, out, from_logits=from_logits),
        )
        assert_close(
            nn.sparse_categorical_crossentropy([0, 3, 1], out, from_logits=from_logits),
            keras.ops.sparse_categorical_crossentropy([0, 3, 1], out, from_logits=from_logits),
        )
    binary = (RNG.uniform(size=(3, 4)) > 0.5).astype("float32")
    for from_logits, out in ((True, logits), (False, np.asarray(keras.ops.sigmoid(logits)))):
        assert_close(
            nn.binary_crossentropy(binary, out, from_logits=from_logits),
            keras.ops.binary_crossentropy(binary, out, from_logits=from_logits),
        )
    with pytest.raises(ValueError, match="same shape"):
        nn.categorical_crossentropy(target[:, :3], probs)


def test_moments_and_batch_normalization():
    x = RNG.standard_normal((4, 3, 5)).astype("float32")
    mean, var = nn.moments(x, axes=(0, 2))
    assert_close(mean, x.mean(axis=(0, 2)))
    assert_close(var, x.var(axis=(0, 2)))
    mean16, _ = nn.moments(x.astype("float16"), axes=[0], keepdims=True)
    assert mean16.dtype == tf.float16 and tuple(mean16.shape) == (1, 3, 5)
    m, v = x.mean(axis=(0, 2)), x.var(axis=(0, 2))
    gamma, beta = np.array([1.0, 2.0, 0.5], "float32"), np.array([0.0, 1.0, -1.0], "float32")
    out = nn.batch_normalization(x, m, v, axis=1, offset=beta, scale=gamma, epsilon=1e-3)
    ref = (x - m[:, None]) / np.sqrt(v[:, None] + 1e-3) * gamma[:, None] + beta[:, None]
    assert_close(out, ref, atol=1e-4)


def test_ctc_loss_and_decode_match_keras():
    logits = RNG.standard_normal((2, 6, 4)).astype("float32")
    target = np.array([[1, 2, 0], [3, 3, 1]], "int32")
    t_len, o_len = np.array([2, 3], "int32"), np.array([6, 5], "int32")
    assert_close(
        nn.ctc_loss(target, logits, t_len, o_len),
        keras.ops.ctc_loss(target, logits, t_len, o_len),
        atol=1e-4,
    )
    for strategy in ("greedy", "beam_search"):
        ours = nn.ctc_decode(logits, o_len, strategy=strategy, beam_width=4)
        ref = keras.ops.ctc_decode(logits, o_len, strategy=strategy, beam_width=4)
        np.testing.assert_array_equal(ours[0], ref[0])
        assert_close(ours[1], ref[1], atol=1e-4)


def test_psnr_formula():
    a = RNG.uniform(size=(8, 8)).astype("float32")
    b = np.clip(a + RNG.normal(0, 0.05, a.shape), 0, 1).astype("float32")
    mse = np.mean((a.astype("float64") - b) ** 2)
    assert_close(nn.psnr(a, b, 1.0), 20 * np.log10(1.0) - 10 * np.log10(mse), rtol=1e-4)


def _attention_reference(q, k, v, mask=None, causal=False, scale=None, cap=None):
    heads = q.shape[2]
    k = np.repeat(k, heads // k.shape[2], axis=2)
    v = np.repeat(v, heads // v.shape[2], axis=2)
    scale = 1 / np.sqrt(q.shape[-1]) if scale is None else scale
    logits = np.einsum("btnh,bsnh->bnts", q, k) * scale
    if cap is not None:
        logits = cap * np.tanh(logits / cap)
    keep = np.ones(logits.shape, bool)
    if mask is not None:
        keep &= mask
    if causal:
        keep &= np.tril(np.ones(logits.shape[-2:], bool))
    logits = np.where(keep, logits, -1e9)
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", w, v)


def test_dot_product_attention_matches_formula():
    q = RNG.standard_normal((2, 5, 4, 8)).astype("float32")
    k = RNG.standard_normal((2, 5, 2, 8)).astype("float32")  # grouped-query: 2 kv heads
    v = RNG.standard_normal((2, 5, 2, 8)).astype("float32")
    mask = RNG.uniform(size=(2, 1, 5, 5)) > 0.2
    mask[..., 0] = True
    assert_close(nn.dot_product_attention(q, k, v), _attention_reference(q, k, v), atol=1e-5)
    assert_close(
        nn.dot_product_attention(q, k, v, mask=mask, is_causal=True, attn_logits_soft_cap=2.0),
        _attention_reference(q, k, v, mask=mask, causal=True, cap=2.0),
        atol=1e-5,
    )
    with pytest.raises(ValueError, match="flash_attention"):
        nn.dot_product_attention(q, k, v, flash_attention=True)
