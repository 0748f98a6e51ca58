"""Normalization statistics, one-hot encodings and dot-product attention."""

import math

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    canonical_axes,
    canonical_axis,
    const,
    const_like,
    cv,
    i64,
    opset,
    reshape,
    run,
    transpose,
)
from mb_backend_openvino.nn._losses import _one_hot_node
from mb_ops import config, numpy_shaped


def moments(x, axes, keepdims=False, synchronized=False):
    if synchronized:
        raise NotImplementedError(
            "moments(synchronized=True) is not supported on the openvino backend: it runs on "
            "one device and has nothing to synchronize. Pass synchronized=False."
        )
    x = to_tensor(x)
    axes = canonical_axes(axes, x.ndim, "moments")
    dtype = x.dtype
    work = "float32" if dtype in ("float16", "bfloat16") else dtype

    def build(a):
        a = cv(a, work)
        mean = opset.reduce_mean(a, i64(list(axes)), True)
        variance = opset.subtract(
            opset.reduce_mean(opset.multiply(a, a), i64(list(axes)), True),
            opset.multiply(mean, mean),
        )
        variance = opset.maximum(variance, const_like(0, a))
        if not keepdims:
            mean = opset.squeeze(mean, i64(list(axes)))
            variance = opset.squeeze(variance, i64(list(axes)))
        if work != dtype:
            limit = float(np.finfo(np.float16).max)
            mean = opset.clamp(mean, -limit, limit)
            variance = opset.clamp(variance, -limit, limit)
        return [cv(mean.output(0), dtype), cv(variance.output(0), dtype)]

    return run(("moments", axes, bool(keepdims), dtype), build, x)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    x, mean, variance = to_tensor(x), to_tensor(mean), to_tensor(variance)
    ax = canonical_axis(axis, x.ndim, "batch_normalization")
    extras = [to_tensor(t) for t in (offset, scale) if t is not None]
    has_offset, has_scale = offset is not None, scale is not None
    dtype = x.dtype
    nd = x.ndim

    def build(a, m, v, *rest):
        shape = [1] * nd
        shape[ax] = -1
        m, v = reshape(cv(m, dtype), shape), reshape(cv(v, dtype), shape)
        rest = [reshape(cv(r, dtype), shape) for r in rest]
        inv = opset.divide(const_like(1, m), opset.sqrt(opset.add(v, const_like(epsilon, v))))
        if has_scale:
            inv = opset.multiply(inv, rest[-1])
        shift = opset.negative(opset.multiply(m, inv))
        if has_offset:
            shift = opset.add(shift, rest[0])
        return opset.add(opset.multiply(a, inv), shift)

    key = ("batch_normalization", ax, float(epsilon), has_offset, has_scale, dtype)
    return run(key, build, x, mean, variance, *extras)


def _large_negative(dtype):
    return (65500.0 if dtype == "float16" else 3.38953e38) * -0.7


def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
):
    query, key, value = to_tensor(query), to_tensor(key), to_tensor(value)
    numpy_shaped.check_attention_arguments("openvino", flash_attention, query, key, value)
    dtype = _dtypes.result_type(query.dtype, key.dtype, value.dtype)
    work = "float64" if dtype == "float64" else "float32"
    repeats = query.shape[2] // key.shape[2] if key.shape[2] != query.shape[2] else 1
    scale = 1.0 / math.sqrt(key.shape[-1]) if scale is None else float(scale)
    inputs = [query, key, value]
    has_bias, has_mask = bias is not None, mask is not None
    if has_bias:
        inputs.append(to_tensor(bias))
    if has_mask:
        inputs.append(to_tensor(mask))
    cap = None if attn_logits_soft_cap is None else float(attn_logits_soft_cap)
    negative = _large_negative(work)

    def build(q, k, v, *rest):
        q, k, v = (transpose(cv(t, work), [0, 2, 1, 3]) for t in (q, k, v))  # (B, N, T, H)
        if repeats > 1:
            # Grouped-query attention: each key/value head serves several query heads.
            k = _repeat_heads(k, repeats, key.shape[2], key.shape[3])
            v = _repeat_heads(v, repeats, value.shape[2], value.shape[3])
        logits = opset.multiply(opset.matmul(q, k, False, True), const(scale, work))
        rest = list(rest)
        if has_bias:
            logits = opset.add(logits, cv(rest.pop(0), work))
        if cap is not None:
            c = const(cap, work)
            logits = opset.multiply(c, opset.tanh(opset.divide(logits, c)))
        keep = None
        if has_mask:
            keep = cv(rest.pop(0), "bool")
        if is_causal:
            t = opset.gather(opset.shape_of(logits, "i64"), i64([2]), i64(0))
            s = opset.gather(opset.shape_of(logits, "i64"), i64([3]), i64(0))
            rows = opset.range(
                opset.constant(np.int64(0)),
                opset.squeeze(t, i64([0])),
                opset.constant(np.int64(1)),
                "i64",
            )
            cols = opset.range(
                opset.constant(np.int64(0)),
                opset.squeeze(s, i64([0])),
                opset.constant(np.int64(1)),
                "i64",
            )
            causal = opset.greater_equal(
                opset.unsqueeze(rows, i64([1])), opset.unsqueeze(cols, i64([0]))
            )
            keep = causal if keep is None else opset.logical_and(keep, causal)
        if keep is not None:
            logits = opset.select(keep, logits, const(negative, work))
        probs = opset.softmax(logits, -1)
        encoded = opset.matmul(probs, v, False, False)
        return cv(transpose(encoded.output(0), [0, 2, 1, 3]), dtype)

    key_ = ("dpa", repeats, scale, has_bias, has_mask, bool(is_causal), cap, dtype)
    return run(key_, build, *inputs)


def _repeat_heads(node, repeats, heads, depth):
    """(B, K, S, H) -> (B, K * repeats, S, H), each head repeated in place."""
    expanded = opset.unsqueeze(node, i64([2]))
    tiled = opset.tile(expanded, i64([1, 1, repeats, 1, 1]))
    # special_zero: the 0 keeps the batch dim; -1 is the sequence.
    return opset.reshape(tiled, i64([0, heads * repeats, -1, depth]), True).output(0)


def _no_sparse(name, sparse):
    if sparse:
        raise ValueError(
            f"{name}(sparse=True) is not supported on the openvino backend: it has no sparse "
            "tensors. Pass sparse=False."
        )


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    _no_sparse("one_hot", sparse)
    x = to_tensor(x)
    dtype = _dtypes.standardize_dtype(dtype or config.floatx())
    if not num_classes:
        num_classes = int(np.max(x.numpy())) + 1
    depth = int(num_classes)
    ax = canonical_axis(axis, x.ndim + 1, "one_hot")
    return run(("one_hot", depth, ax, dtype), lambda a: _one_hot_node(a, depth, ax, dtype), x)


def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    _no_sparse("multi_hot", sparse)
    inputs = to_tensor(inputs)
    dtype = _dtypes.standardize_dtype(dtype or config.floatx())
    depth = int(num_classes)
    reduce_axis = 1 if inputs.ndim > 1 else 0
    ax = canonical_axis(axis, inputs.ndim + 1, "multi_hot")

    def build(a):
        hot = _one_hot_node(a, depth, ax, dtype)
        return opset.reduce_max(hot, i64([reduce_axis]), False)

    return run(("multi_hot", depth, ax, reduce_axis, dtype), build, inputs)
