"""nn: values and dtypes against Keras 3's own jax backend, and NumPy formulas.

Tolerances: rtol=1e-5, atol=1e-5 for float32 unless a test says otherwise.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_keras_reference import nn as knn

from mb_backend_jax import nn

RNG = np.random.default_rng(1)
TOL = {"rtol": 1e-5, "atol": 1e-5}


def _close(a, b, **tol):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), **(tol or TOL))


ACTIVATIONS = [
    "relu", "relu6", "sigmoid", "sparse_sigmoid", "tanh", "tanh_shrink", "softplus",
    "softsign", "soft_shrink", "sparse_plus", "silu", "squareplus", "log_sigmoid",
    "leaky_relu", "hard_sigmoid", "hard_silu", "elu", "selu", "gelu", "celu", "glu",
    "hard_tanh", "hard_shrink", "softmax", "log_softmax",
]  # fmt: skip


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activations_match_keras(name, dtype):
    x = jnp.asarray(RNG.normal(size=(3, 6)) * 3).astype(dtype)
    got, expected = getattr(nn, name)(x), getattr(knn, name)(x)
    assert got.dtype == expected.dtype
    _close(got.astype("float32"), expected.astype("float32"))


def _numpy_sparsemax(z):
    # Martins & Astudillo (2016): project each row onto the probability simplex.
    out = np.zeros_like(z)
    for i, row in enumerate(z):
        ordered = np.sort(row)[::-1]
        cumulative = np.cumsum(ordered)
        k = np.arange(1, row.size + 1)
        support = k[1 + k * ordered > cumulative].max()
        tau = (cumulative[support - 1] - 1) / support
        out[i] = np.maximum(row - tau, 0)
    return out


def test_sparsemax_projects_onto_the_simplex():
    x = (RNG.normal(size=(4, 6)) * 2).astype("float32")
    got = np.asarray(nn.sparsemax(x))
    _close(got, _numpy_sparsemax(x.astype("float64")))
    _close(got.sum(-1), np.ones(4))
    _close(np.asarray(nn.sparsemax(x.T, axis=0)).T, got)


def test_threshold_and_gelu_exact():
    x = RNG.normal(size=(5,)).astype("float32")
    _close(nn.threshold(x, 0.1, -2.0), np.where(x > 0.1, x, -2.0))
    _close(nn.gelu(x, approximate=False), knn.gelu(x, approximate=False))


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize(
    "strides,padding,dilation", [(1, "valid", 1), (2, "same", 1), (1, "same", 2), (2, "valid", 1)]
)
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_convolutions_match_keras(dims, strides, padding, dilation, data_format):
    if strides > 1 and dilation > 1:
        return
    spatial = (7,) * dims
    x = RNG.normal(size=(2, *spatial, 4)).astype("float32")
    if data_format == "channels_first":
        x = np.moveaxis(x, -1, 1)
    k = RNG.normal(size=(3,) * dims + (4, 5)).astype("float32")
    args = (strides, padding, data_format, dilation)
    _close(nn.conv(x, k, *args), knn.conv(x, k, *args), rtol=1e-4, atol=1e-4)
    dk = RNG.normal(size=(3,) * dims + (4, 2)).astype("float32")
    _close(nn.depthwise_conv(x, dk, *args), knn.depthwise_conv(x, dk, *args), rtol=1e-4, atol=1e-4)
    pk = RNG.normal(size=(1,) * dims + (8, 3)).astype("float32")
    _close(
        nn.separable_conv(x, dk, pk, *args), knn.separable_conv(x, dk, pk, *args), rtol=1e-4,
        atol=1e-4,
    )  # fmt: skip
    tk = RNG.normal(size=(3,) * dims + (5, 4)).astype("float32")
    for output_padding in (None, 0) if strides == 1 else (None, 1):
        got = nn.conv_transpose(x, tk, strides, padding, output_padding, data_format, dilation)
        want = knn.conv_transpose(x, tk, strides, padding, output_padding, data_format, dilation)
        _close(got, want, rtol=1e-4, atol=1e-4)


def test_grouped_conv_and_errors():
    x = RNG.normal(size=(1, 6, 6, 4)).astype("float32")
    k = RNG.normal(size=(3, 3, 2, 6)).astype("float32")
    _close(nn.conv(x, k), knn.conv(x, k), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="in_channels"):
        nn.conv(x, RNG.normal(size=(3, 3, 3, 6)).astype("float32"))
    with pytest.raises(ValueError, match="empty output"):
        nn.conv(x[:, :2, :2], k)
    with pytest.raises(ValueError, match="padding"):
        nn.conv(x, k, padding="full")


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_pooling_matches_keras(dims, padding, data_format):
    x = RNG.normal(size=(2, *(7,) * dims, 3)).astype("float32")
    if data_format == "channels_first":
        x = np.moveaxis(x, -1, 1)
    # Keras's backend function needs explicit strides; None means pool_size.
    for strides in (None, 2):
        _close(
            nn.max_pool(x, 3, strides, padding, data_format),
            knn.max_pool(x, 3, strides or 3, padding, data_format),
        )
        _close(
            nn.average_pool(x, 2, strides, padding, data_format),
            knn.average_pool(x, 2, strides or 2, padding, data_format),
        )


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("dims,size", [(1, 3), (2, (3, 2)), (3, 2)])
def test_adaptive_pooling_matches_keras(dims, size, data_format):
    x = RNG.normal(size=(2, *(7,) * dims, 3)).astype("float32")
    if data_format == "channels_first":
        x = np.moveaxis(x, -1, 1)
    _close(
        nn.adaptive_average_pool(x, size, data_format),
        knn.adaptive_average_pool(jnp.asarray(x), size, data_format),
    )
    _close(
        nn.adaptive_max_pool(x, size, data_format),
        knn.adaptive_max_pool(jnp.asarray(x), size, data_format),
    )


def test_encodings_match_keras():
    x = np.array([[0, 2, -1], [1, 1, 3]], "int32")
    for axis in (-1, 0, 1):
        _close(nn.one_hot(x, 4, axis=axis), knn.one_hot(x, 4, axis=axis))
    _close(nn.multi_hot(x, 4), knn.multi_hot(x, 4))
    assert nn.one_hot(x, 4, dtype="int32").dtype == jnp.int32


@pytest.mark.parametrize("from_logits", [False, True])
def test_crossentropies_match_keras(from_logits):
    logits = RNG.normal(size=(4, 5)).astype("float32")
    output = logits if from_logits else np.asarray(jax.nn.softmax(logits))
    target = np.eye(5, dtype="float32")[[0, 3, 1, 4]]
    _close(
        nn.categorical_crossentropy(target, output, from_logits),
        knn.categorical_crossentropy(target, output, from_logits),
    )
    labels = np.array([0, 3, 1, 4])
    _close(
        nn.sparse_categorical_crossentropy(labels, output, from_logits),
        knn.sparse_categorical_crossentropy(labels, output, from_logits),
    )
    probs = logits if from_logits else np.asarray(jax.nn.sigmoid(logits))
    binary = (RNG.uniform(size=(4, 5)) > 0.5).astype("float32")
    _close(
        nn.binary_crossentropy(binary, probs, from_logits),
        knn.binary_crossentropy(binary, probs, from_logits),
    )
    with pytest.raises(ValueError, match="same shape"):
        nn.categorical_crossentropy(target[:2], output, from_logits)


def test_moments_batch_normalization_and_psnr():
    x = RNG.normal(size=(4, 3, 5)).astype("float32")
    mean, var = nn.moments(x, axes=(0, 2))
    _close(mean, x.mean(axis=(0, 2)))
    _close(var, x.var(axis=(0, 2)))
    m16, v16 = nn.moments(x.astype("float16"), axes=[0], keepdims=True)
    assert m16.dtype == v16.dtype == jnp.float16 and m16.shape == (1, 3, 5)
    scale, offset = np.full(3, 2.0, "float32"), np.full(3, 0.5, "float32")
    out = nn.batch_normalization(x, mean, var, axis=1, offset=offset, scale=scale, epsilon=1e-3)
    ref = (x - mean[:, None]) / np.sqrt(var[:, None] + 1e-3) * 2.0 + 0.5
    _close(out, ref, rtol=1e-4, atol=1e-4)
    y = x + 0.1
    _close(nn.psnr(x, y, 1.0), 20 * np.log10(1.0) - 10 * np.log10(np.mean((x - y) ** 2)), rtol=1e-4)
    with pytest.raises(NotImplementedError, match="synchronized"):
        nn.moments(x, axes=[0], synchronized=True)


def test_ctc_loss_matches_keras_and_has_finite_gradients():
    logits = RNG.normal(size=(3, 8, 5)).astype("float32")
    target = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 4, 1]], "int32")
    target_length = np.array([3, 2, 4], "int32")
    output_length = np.array([8, 6, 8], "int32")
    got = nn.ctc_loss(target, logits, target_length, output_length)
    want = knn.ctc_loss(target, logits, target_length, output_length)
    _close(got, want, rtol=1e-4, atol=1e-4)
    grad = jax.grad(lambda z: nn.ctc_loss(target, z, target_length, output_length).sum())(logits)
    assert np.isfinite(np.asarray(grad)).all()


def test_ctc_greedy_decode_matches_keras():
    logits = RNG.normal(size=(2, 7, 4)).astype("float32")
    lengths = np.array([7, 5], "int32")
    for merge in (True, False):
        got = nn.ctc_decode(logits, lengths, merge_repeated=merge)
        want = knn.ctc_decode(logits, lengths, merge_repeated=merge)
        np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))
        _close(got[1], want[1])


@pytest.mark.parametrize("mask_index", [0, None])
def test_ctc_beam_search_matches_keras(mask_index):
    logits = RNG.normal(size=(2, 6, 4)).astype("float32") * 2
    lengths = np.array([6, 4], "int32")
    kwargs = {"strategy": "beam_search", "beam_width": 20, "top_paths": 3,
              "mask_index": mask_index}  # fmt: skip
    got = nn.ctc_decode(logits, lengths, **kwargs)
    want = knn.ctc_decode(jnp.asarray(logits), jnp.asarray(lengths), **kwargs)
    np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))
    _close(got[1], want[1], rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="top_paths"):
        nn.ctc_decode(logits, lengths, strategy="beam_search", beam_width=2, top_paths=3)
    traced = jax.jit(lambda z: nn.ctc_decode(z, lengths, strategy="beam_search"))
    with pytest.raises(ValueError, match="cannot be traced"):
        traced(logits)


@pytest.mark.parametrize("kv_heads", [4, 2])
@pytest.mark.parametrize("is_causal", [False, True])
def test_dot_product_attention_matches_keras(is_causal, kv_heads):
    q = RNG.normal(size=(2, 5, 4, 8)).astype("float32")
    k = RNG.normal(size=(2, 5, kv_heads, 8)).astype("float32")
    v = RNG.normal(size=(2, 5, kv_heads, 8)).astype("float32")
    mask = RNG.uniform(size=(2, 1, 5, 5)) > 0.3
    bias = RNG.normal(size=(2, 4, 5, 5)).astype("float32")
    for kwargs in ({}, {"mask": mask}, {"bias": bias, "scale": 0.2}):
        got = nn.dot_product_attention(q, k, v, is_causal=is_causal, **kwargs)
        want = knn.dot_product_attention(q, k, v, is_causal=is_causal, **kwargs)
        _close(got, want, rtol=1e-4, atol=1e-4)


def test_dot_product_attention_soft_cap_and_errors():
    q = RNG.normal(size=(1, 3, 2, 4)).astype("float32")
    capped = nn.dot_product_attention(q, q, q, attn_logits_soft_cap=1.0)
    logits = np.einsum("btnh,bsnh->bnts", q, q) / 2.0
    logits = np.tanh(logits)
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    _close(capped, np.einsum("bnts,bsnh->btnh", probs, q), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="4-D"):
        nn.dot_product_attention(q[0], q[0], q[0])


def test_unfold_fold_and_depth_space_match_keras():
    x = RNG.normal(size=(2, 3, 6, 6)).astype("float32")
    cols = nn.unfold(x, 3, dilation=1, padding=1, stride=2)
    _close(cols, knn.unfold(jnp.asarray(x), 3, 1, 1, 2))
    _close(nn.fold(cols, (6, 6), 3, 1, 1, 2), knn.fold(jnp.asarray(cols), (6, 6), 3, 1, 1, 2))
    for data_format in ("channels_last", "channels_first"):
        y = RNG.normal(size=(2, 4, 4, 8)).astype("float32")
        _close(
            nn.depth_to_space(y, 2, data_format), knn.depth_to_space(jnp.asarray(y), 2, data_format)
        )
        _close(
            nn.space_to_depth(y, 2, data_format), knn.space_to_depth(jnp.asarray(y), 2, data_format)
        )
