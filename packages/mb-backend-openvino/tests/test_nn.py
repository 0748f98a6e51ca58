"""nn ops beyond the conformance kit: both layouts, transposed convs, pooling, attention."""

import numpy as np
import pytest

from mb_backend_openvino import core, nn

RNG = np.random.default_rng(2)


def _np(t):
    return core.convert_to_numpy(t)


def _naive_conv1d(x, kernel, stride=1):
    """(N, W, C) * (K, C, O) valid cross-correlation."""
    k = kernel.shape[0]
    steps = (x.shape[1] - k) // stride + 1
    out = np.zeros((x.shape[0], steps, kernel.shape[-1]))
    for i in range(steps):
        out[:, i] = np.einsum("nkc,kco->no", x[:, i * stride : i * stride + k], kernel)
    return out


def test_conv_in_both_layouts_and_same_padding():
    x = RNG.standard_normal((2, 9, 3)).astype("float32")
    kernel = RNG.standard_normal((3, 3, 4)).astype("float32")
    np.testing.assert_allclose(
        _np(nn.conv(x, kernel, 2, "valid", "channels_last")), _naive_conv1d(x, kernel, 2), atol=1e-4
    )
    first = _np(nn.conv(np.transpose(x, (0, 2, 1)), kernel, 1, "valid", "channels_first"))
    np.testing.assert_allclose(np.transpose(first, (0, 2, 1)), _naive_conv1d(x, kernel), atol=1e-4)
    # 'same' pads (k - 1) // 2 at the start and the rest at the end, as TensorFlow.
    same = _np(nn.conv(x, kernel, 1, "same", "channels_last"))
    padded = np.pad(x, ((0, 0), (1, 1), (0, 0)))
    np.testing.assert_allclose(same, _naive_conv1d(padded, kernel), atol=1e-4)


def _naive_conv_transpose1d(x, kernel, stride):
    """(N, W, C) with a (K, O, C) kernel, 'valid': every input scatters a kernel copy."""
    n, w, _ = x.shape
    k, o, _ = kernel.shape
    out = np.zeros((n, (w - 1) * stride + max(k, stride), o))
    for i in range(w):
        out[:, i * stride : i * stride + k] += np.einsum("nc,koc->nko", x[:, i], kernel)
    return out


@pytest.mark.parametrize("stride", [1, 2, 3])
def test_conv_transpose_scatters_kernel_copies(stride):
    x = RNG.standard_normal((2, 5, 3)).astype("float32")
    kernel = RNG.standard_normal((3, 4, 3)).astype("float32")
    got = _np(nn.conv_transpose(x, kernel, stride, "valid", data_format="channels_last"))
    np.testing.assert_allclose(got, _naive_conv_transpose1d(x, kernel, stride), atol=1e-4)


def test_depthwise_conv_in_channels_first():
    x = RNG.standard_normal((1, 2, 6, 6)).astype("float32")
    kernel = RNG.standard_normal((3, 3, 2, 2)).astype("float32")
    got = _np(nn.depthwise_conv(x, kernel, 1, "valid", "channels_first"))
    expected = np.zeros((1, 4, 4, 4))
    for c in range(2):
        for m in range(2):
            for i in range(4):
                for j in range(4):
                    expected[0, c * 2 + m, i, j] = np.sum(
                        x[0, c, i : i + 3, j : j + 3] * kernel[:, :, c, m]
                    )
    np.testing.assert_allclose(got, expected, atol=1e-4)


def test_average_pool_same_padding_averages_only_real_inputs():
    x = np.arange(1, 6, dtype="float32").reshape(1, 5, 1)
    got = _np(nn.average_pool(x, 2, 2, "same", "channels_last"))[0, :, 0]
    np.testing.assert_allclose(got, [1.5, 3.5, 5.0])
    np.testing.assert_allclose(
        _np(nn.max_pool(x, 2, 2, "same", "channels_last"))[0, :, 0], [2, 4, 5]
    )


def test_attention_with_a_causal_mask_and_grouped_heads():
    q = RNG.standard_normal((1, 3, 4, 2)).astype("float32")
    k = RNG.standard_normal((1, 3, 2, 2)).astype("float32")
    v = RNG.standard_normal((1, 3, 2, 2)).astype("float32")
    got = _np(nn.dot_product_attention(q, k, v, is_causal=True))
    kk, vv = np.repeat(k, 2, axis=2), np.repeat(v, 2, axis=2)
    logits = np.einsum("btnh,bsnh->bnts", q, kk) / np.sqrt(2)
    logits = np.where(np.tril(np.ones((3, 3), bool)), logits, -np.inf)
    probs = np.exp(logits - logits.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    np.testing.assert_allclose(got, np.einsum("bnts,bsnh->btnh", probs, vv), atol=1e-5)


def test_softmax_and_losses_in_float16_keep_the_dtype():
    logits = RNG.standard_normal((4, 5)).astype("float16")
    probs = nn.softmax(logits)
    assert probs.dtype == "float16"
    np.testing.assert_allclose(_np(probs).astype("float32").sum(-1), 1.0, atol=2e-3)
    labels = np.array([0, 1, 2, 3], "int32")
    loss = _np(nn.sparse_categorical_crossentropy(labels, logits, from_logits=True))
    shifted = logits.astype("float64") - logits.astype("float64").max(-1, keepdims=True)
    expected = -(shifted - np.log(np.exp(shifted).sum(-1, keepdims=True)))[np.arange(4), labels]
    np.testing.assert_allclose(loss.astype("float64"), expected, atol=5e-3)
