"""Normalization statistics, attention, PSNR, patches (unfold/fold) and pixel shuffles."""

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


def psnr(x1, x2, max_val):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if tuple(x1.shape) != tuple(x2.shape):
        raise ValueError(
            f"psnr expects inputs of the same shape. Received: {x1.shape} and {x2.shape}."
        )
    peak = to_tensor(max_val)
    dtype = x2.dtype

    def build(a, b, m):
        a, b, m = cv(a, dtype), cv(b, dtype), cv(m, dtype)
        diff = opset.subtract(a, b)
        mse = opset.reduce_mean(
            reshape(opset.multiply(diff, diff).output(0), [-1]), i64([0]), False
        )
        ln10 = const_like(math.log(10), m)
        db = lambda v: opset.divide(opset.log(v), ln10)  # noqa: E731
        return opset.subtract(
            opset.multiply(const_like(20, m), db(m)), opset.multiply(const_like(10, m), db(mse))
        )

    return run(("psnr", dtype), build, x1, x2, peak)


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
    if flash_attention:
        raise ValueError(
            "flash_attention=True is not supported on the openvino backend. "
            "Pass flash_attention=None or False."
        )
    query, key, value = to_tensor(query), to_tensor(key), to_tensor(value)
    if query.ndim != 4:
        raise ValueError(
            "dot_product_attention expects 4D inputs (batch, seq, heads, head_dim). "
            f"Received: query.shape={query.shape}, key.shape={key.shape}, "
            f"value.shape={value.shape}."
        )
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


def _pair(value):
    return (
        (int(value), int(value))
        if isinstance(value, int | np.integer)
        else tuple(int(v) for v in value)
    )


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an (N, C, H, W) input as (N, C * kH * kW, L), like torch's Unfold."""
    x = to_tensor(input)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(_pair, (kernel_size, dilation, padding, stride))
    n, c, h, w = x.shape
    hp, wp = h + 2 * ph, w + 2 * pw
    oh = (hp - (kh - 1) * dh - 1) // sh + 1
    ow = (wp - (kw - 1) * dw - 1) // sw + 1

    def build(a):
        a = opset.pad(a, i64([0, 0, ph, pw]), i64([0, 0, ph, pw]), "constant", const_like(0, a))
        taps = []
        for i in range(kh):
            for j in range(kw):
                begin = [0, 0, i * dh, j * dw]
                end = [n, c, i * dh + (oh - 1) * sh + 1, j * dw + (ow - 1) * sw + 1]
                part = opset.strided_slice(
                    a, i64(begin), i64(end), i64([1, 1, sh, sw]), [0] * 4, [0] * 4
                )
                taps.append(opset.unsqueeze(part, i64([2])))
        patches = opset.concat(taps, 2)  # (N, C, kh*kw, oh, ow)
        return reshape(patches.output(0), [n, c * kh * kw, oh * ow])

    return run(("unfold", (kh, kw, dh, dw, ph, pw, sh, sw)), build, x, static=True)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum (N, C * kH * kW, L) blocks back into (N, C, H, W), like torch's Fold."""
    x = to_tensor(x)
    (oh, ow), (kh, kw) = _pair(output_size), _pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = map(_pair, (dilation, padding, stride))
    n = x.shape[0]
    c = x.shape[1] // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    full_h, full_w = oh + 2 * ph, ow + 2 * pw

    def build(a):
        blocks = reshape(a, [n, c, kh, kw, nh, nw])
        total = None
        for i in range(kh):
            for j in range(kw):
                block = opset.gather(opset.gather(blocks, i64(i), i64(2)), i64(j), i64(2))
                # Spread the block with the stride (zeros between taps), then place it.
                spread = _spread(block.output(0), sh, sw, nh, nw)
                rows = (nh - 1) * sh + 1
                cols = (nw - 1) * sw + 1
                top, left = i * dh, j * dw
                placed = opset.pad(
                    spread,
                    i64([0, 0, top, left]),
                    i64([0, 0, full_h - top - rows, full_w - left - cols]),
                    "constant",
                    const_like(0, a),
                )
                total = placed if total is None else opset.add(total, placed)
        return opset.slice(total, i64([ph, pw]), i64([ph + oh, pw + ow]), i64([1, 1]), i64([2, 3]))

    return run(("fold", (oh, ow, kh, kw, dh, dw, ph, pw, sh, sw)), build, x, static=True)


def _spread(node, sh, sw, nh, nw):
    """(N, C, nh, nw) -> (N, C, (nh-1)*sh+1, (nw-1)*sw+1) with zeros between the values."""
    if sh > 1:
        node = opset.unsqueeze(node, i64([3]))
        node = opset.pad(
            node, i64([0, 0, 0, 0, 0]), i64([0, 0, 0, sh - 1, 0]), "constant", const_like(0, node)
        )
        node = opset.reshape(node, i64([0, 0, -1, nw]), True)
        node = opset.slice(node, i64([0]), i64([(nh - 1) * sh + 1]), i64([1]), i64([2]))
    if sw > 1:
        rows = (nh - 1) * sh + 1
        node = opset.unsqueeze(node, i64([4]))
        node = opset.pad(
            node, i64([0, 0, 0, 0, 0]), i64([0, 0, 0, 0, sw - 1]), "constant", const_like(0, node)
        )
        node = opset.reshape(node, i64([0, 0, rows, -1]), True)
        node = opset.slice(node, i64([0]), i64([(nw - 1) * sw + 1]), i64([1]), i64([3]))
    return node.output(0) if hasattr(node, "output") else node


def depth_to_space(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = int(block_size)
    n, d1, d2, d3 = x.shape
    if data_format == "channels_last":
        h, w, c = d1, d2, d3
        steps = ([n, h, w, b, b, c // (b * b)], [0, 1, 3, 2, 4, 5], [n, h * b, w * b, c // (b * b)])
    else:
        c, h, w = d1, d2, d3
        steps = ([n, c // (b * b), b, b, h, w], [0, 1, 4, 2, 5, 3], [n, c // (b * b), h * b, w * b])
    return _shuffle("depth_to_space", x, steps)


def space_to_depth(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = int(block_size)
    n, d1, d2, d3 = x.shape
    if data_format == "channels_last":
        h, w, c = d1, d2, d3
        steps = ([n, h // b, b, w // b, b, c], [0, 1, 3, 2, 4, 5], [n, h // b, w // b, c * b * b])
    else:
        c, h, w = d1, d2, d3
        steps = ([n, c, h // b, b, w // b, b], [0, 1, 3, 5, 2, 4], [n, c * b * b, h // b, w // b])
    return _shuffle("space_to_depth", x, steps)


def _shuffle(name, x, steps):
    first, perm, last = steps

    def build(a):
        return reshape(transpose(reshape(a, first), perm), last)

    return run((name, tuple(first), tuple(perm), tuple(last)), build, x)
