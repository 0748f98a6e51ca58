"""The nn contract module: against explicit NumPy formulas, and against Keras 3."""

import itertools
import math

import numpy as np
import pytest
from _cases import floats, ints
from _keras_ref import keras_backend_module, keras_ops
from _nn_cases import CASES

import mb_backend_numpy.nn as mnn

TOLERANCE = {"float16": 5e-3, "bfloat16": 3e-2, "float32": 1e-4, "float64": 1e-10}


def _leaves(x):
    if isinstance(x, list | tuple):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _case_id(case):
    name, args, kwargs = case
    return f"{name}-{'-'.join(str(getattr(a, 'shape', a)) for a in args[:2])}-{sorted(kwargs)}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_nn_op_matches_keras(case):
    ops = keras_ops()
    name, args, kwargs = case
    mine = getattr(mnn, name)(*args, **kwargs)
    with np.errstate(all="ignore"):
        fn = getattr(ops.nn, name, None) or getattr(keras_backend_module("nn"), name)
        ref = fn(*args, **kwargs)
    for a, b in zip(_leaves(mine), _leaves(ref), strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape
        assert a.dtype == b.dtype
        tol = TOLERANCE.get(str(a.dtype), 0)
        np.testing.assert_allclose(a.astype("float64"), b.astype("float64"), rtol=tol, atol=tol)


def _conv2d_loop(x, k, stride, pad):
    """Direct definition of a channels-last 2D convolution (cross-correlation)."""
    x = np.pad(x, ((0, 0), pad[0], pad[1], (0, 0)))
    kh, kw, _, o = k.shape
    oh = (x.shape[1] - kh) // stride + 1
    ow = (x.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, o))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride : i * stride + kh, j * stride : j * stride + kw, :]
            out[:, i, j, :] = np.einsum("nhwc,hwco->no", patch, k)
    return out


@pytest.mark.parametrize("stride", [1, 2])
def test_conv_matches_its_definition(stride):
    x, k = floats(2, 7, 6, 3), floats(3, 2, 3, 4)
    out = mnn.conv(x, k, strides=stride, padding="valid", data_format="channels_last")
    np.testing.assert_allclose(out, _conv2d_loop(x, k, stride, ((0, 0), (0, 0))), atol=1e-5)
    same = mnn.conv(x, k, strides=1, padding="same", data_format="channels_last")
    np.testing.assert_allclose(same, _conv2d_loop(x, k, 1, ((1, 1), (0, 1))), atol=1e-5)


def test_grouped_conv_is_per_group_conv():
    x, k = floats(1, 5, 5, 4), floats(3, 3, 2, 6)
    out = mnn.conv(x, k, data_format="channels_last")
    first = mnn.conv(x[..., :2], k[..., :3], data_format="channels_last")
    second = mnn.conv(x[..., 2:], k[..., 3:], data_format="channels_last")
    np.testing.assert_allclose(out, np.concatenate([first, second], -1), atol=1e-5)


@pytest.mark.parametrize("stride", [1, 2, 3])
def test_conv_transpose_is_the_adjoint_of_conv(stride):
    # <conv(x, k), y> == <x, conv_transpose(y, k)> when the shapes line up.
    k = floats(3, 3, 2, 4, dtype="float64")
    size = 3 + 2 * stride
    x = floats(2, size, size, 2, dtype="float64")
    y = floats(2, 3, 3, 4, dtype="float64")
    forward = mnn.conv(x, k, strides=stride, data_format="channels_last")
    assert forward.shape == y.shape
    back = mnn.conv_transpose(y, k, strides=stride, output_padding=0, data_format="channels_last")
    assert back.shape == x.shape
    np.testing.assert_allclose(np.sum(forward * y), np.sum(x * back), rtol=1e-10)


def test_depthwise_conv_convolves_each_channel_alone():
    x, k = floats(1, 6, 6, 2), floats(3, 3, 2, 1)
    out = mnn.depthwise_conv(x, k, data_format="channels_last")
    for c in range(2):
        ref = _conv2d_loop(x[..., c : c + 1], k[:, :, c : c + 1, :], 1, ((0, 0), (0, 0)))
        np.testing.assert_allclose(out[..., c : c + 1], ref, atol=1e-5)


def test_pooling_matches_window_reductions():
    x = floats(2, 6, 7, 3)
    out = mnn.max_pool(x, 2, strides=2, data_format="channels_last")
    ref = x[:, :6, :6].reshape(2, 3, 2, 3, 2, 3).max(axis=(2, 4))
    np.testing.assert_array_equal(out, ref)
    avg = mnn.average_pool(x, 3, strides=1, padding="same", data_format="channels_last")
    corner = x[:, :2, :2].mean(axis=(1, 2))  # the 'same' border averages real inputs only
    np.testing.assert_allclose(avg[:, 0, 0], corner, rtol=1e-5)
    np.testing.assert_allclose(avg[:, 3, 3], x[:, 2:5, 2:5].mean(axis=(1, 2)), rtol=1e-5)


def test_adaptive_pooling_uses_torch_windows():
    x = floats(1, 10, 2)
    out = mnn.adaptive_average_pool(x, 4, data_format="channels_last")
    bounds = [(math.floor(i * 10 / 4), math.ceil((i + 1) * 10 / 4)) for i in range(4)]
    ref = np.stack([x[:, s:e].mean(1) for s, e in bounds], axis=1)
    np.testing.assert_allclose(out, ref, rtol=1e-6)


def test_softmax_and_log_softmax_match_their_formulas():
    x = floats(3, 5)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(mnn.softmax(x), e / e.sum(-1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(np.exp(mnn.log_softmax(x)), mnn.softmax(x), rtol=1e-5)
    assert mnn.softmax(x.astype("float16")).dtype == np.float16


def test_sparsemax_is_the_projection_onto_the_simplex():
    # Not compared with Keras 3.15.1's numpy sparsemax, whose threshold is wrong.
    x = floats(4, 6)
    out = mnn.sparsemax(x)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.sum(-1), 1.0, rtol=1e-6)
    for row, p in zip(x, out, strict=True):
        support = p > 0
        # On the support, p = x - tau for one tau; off it, x <= tau.
        tau = (row - p)[support]
        np.testing.assert_allclose(tau, tau[0], rtol=1e-5, atol=1e-6)
        assert (row[~support] <= tau[0] + 1e-6).all()
    cols = mnn.sparsemax(x, axis=0)
    np.testing.assert_allclose(cols, mnn.sparsemax(x.T).T, rtol=1e-6)


def _ctc_brute_force(logits, labels, blank):
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    total = 0.0
    for path in itertools.product(range(logits.shape[1]), repeat=logits.shape[0]):
        collapsed = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
        if [k for k in collapsed if k != blank] == list(labels):
            total += np.prod([probs[t, k] for t, k in enumerate(path)])
    return -np.log(total)


def test_ctc_loss_matches_enumerating_every_alignment():
    logits = floats(2, 4, 3, dtype="float64")
    labels = np.array([[1, 2], [1, 1]])
    out = mnn.ctc_loss(labels, logits, np.array([2, 2]), np.array([4, 4]), mask_index=0)
    ref = [_ctc_brute_force(logits[b], labels[b], 0) for b in range(2)]
    np.testing.assert_allclose(out, ref, rtol=1e-9)


def test_ctc_greedy_decode_collapses_repeats_and_blanks():
    classes = np.array([[1, 1, 0, 2, 2, 0, 1]])
    logits = np.log(np.eye(3)[classes] * 0.9 + 0.05).astype("float32")
    paths, scores = mnn.ctc_decode(logits, np.array([7]), mask_index=0)
    np.testing.assert_array_equal(paths[0, 0, :3], [1, 2, 1])
    assert (paths[0, 0, 3:] == -1).all()
    np.testing.assert_allclose(scores, [[-7 * np.log(0.95)]], rtol=1e-5)


def test_dot_product_attention_matches_its_formula():
    q, k, v = floats(2, 4, 3, 5), floats(2, 6, 3, 5), floats(2, 6, 3, 5)
    logits = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(5)
    weights = np.exp(logits - logits.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    ref = np.einsum("bnts,bsnh->btnh", weights, v)
    np.testing.assert_allclose(mnn.dot_product_attention(q, k, v), ref, rtol=1e-5, atol=1e-6)


def test_unfold_then_fold_counts_each_pixel_once_per_patch():
    x = floats(1, 2, 5, 5)
    blocks = mnn.unfold(x, 3, padding=1)
    counts = mnn.fold(mnn.unfold(np.ones_like(x), 3, padding=1), (5, 5), 3, padding=1)
    np.testing.assert_allclose(mnn.fold(blocks, (5, 5), 3, padding=1), x * counts, rtol=1e-6)


def test_pixel_shuffles_are_inverse():
    x = floats(2, 4, 6, 8)
    back = mnn.depth_to_space(mnn.space_to_depth(x, 2), 2)
    np.testing.assert_array_equal(back, x)


def test_one_hot_and_crossentropy_agree():
    labels = ints(5, low=0, high=4)
    logits = floats(5, 4)
    dense = mnn.categorical_crossentropy(mnn.one_hot(labels, 4), logits, from_logits=True)
    sparse = mnn.sparse_categorical_crossentropy(labels, logits, from_logits=True)
    np.testing.assert_allclose(dense, sparse, rtol=1e-6)


def test_nn_errors_name_what_was_received():
    with pytest.raises(ValueError, match="multiple of the kernel's input channels"):
        mnn.conv(floats(1, 5, 5, 3), floats(3, 3, 2, 4), data_format="channels_last")
    with pytest.raises(ValueError, match="padding must be 'valid' or 'same'"):
        mnn.max_pool(floats(1, 4, 4, 1), 2, padding="full", data_format="channels_last")
    with pytest.raises(NotImplementedError, match="synchronized=True"):
        mnn.moments(floats(3), [0], synchronized=True)
