"""Normalization statistics, attention, PSNR, patches (unfold/fold) and pixel shuffles."""

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.nn._activations import softmax
from mb_backend_numpy.numpy._common import cast, quiet


def moments(x, axes, keepdims=False, synchronized=False):
    if synchronized:
        raise NotImplementedError(
            "moments(synchronized=True) is not supported on the numpy backend: it runs on one "
            "device and has nothing to synchronize. Pass synchronized=False."
        )
    x = to_tensor(x)
    axes = tuple(axes) if isinstance(axes, list) else axes
    dtype = standardize_dtype(x.dtype)
    compute = "float32" if dtype in ("float16", "bfloat16") else dtype
    xc = cast(x, compute)
    mean = np.mean(xc, axis=axes, keepdims=True)
    variance = np.mean(np.square(xc), axis=axes, keepdims=True) - np.square(mean)
    if not keepdims:
        mean = np.squeeze(mean, axes)
        variance = np.squeeze(variance, axes)
    if compute != dtype:
        limit = np.finfo(np.float16).max
        mean = cast(np.clip(mean, -limit, limit), dtype)
        variance = cast(np.clip(variance, -limit, limit), dtype)
    return mean, variance


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    x, mean, variance = to_tensor(x), to_tensor(mean), to_tensor(variance)
    shape = [1] * x.ndim
    shape[axis] = mean.shape[0]
    inv = 1.0 / np.sqrt(variance.reshape(shape) + epsilon)
    if scale is not None:
        inv = inv * to_tensor(scale).reshape(shape)
    shift = -mean.reshape(shape) * inv
    if offset is not None:
        shift = shift + to_tensor(offset).reshape(shape)
    return (x * inv + shift).astype(x.dtype, copy=False)


@quiet
def psnr(x1, x2, max_val):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if x1.shape != x2.shape:
        raise ValueError(
            f"psnr expects inputs of the same shape. Received: {x1.shape} and {x2.shape}."
        )
    max_val = convert_to_tensor(max_val, dtype=x2.dtype)
    mse = np.mean(np.square(x1 - x2))
    return 20 * np.log10(max_val) - 10 * np.log10(mse)


def _large_negative(dtype):
    value = 65500.0 if standardize_dtype(dtype) == "float16" else 3.38953e38
    return np.asarray(value * -0.7, dtype=dtype)


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
            "flash_attention=True is not supported on the numpy backend. "
            "Pass flash_attention=None or False."
        )
    query, key, value = to_tensor(query), to_tensor(key), to_tensor(value)
    if query.ndim != 4:
        raise ValueError(
            "dot_product_attention expects 4D inputs (batch, seq, heads, head_dim). "
            f"Received: query.shape={query.shape}, key.shape={key.shape}, "
            f"value.shape={value.shape}."
        )
    dtype = result_type(query.dtype, key.dtype, value.dtype)
    q, k, v = (cast(t, "float32" if dtype != "float64" else dtype) for t in (query, key, value))
    if k.shape[2] != q.shape[2]:
        # Grouped-query attention: each key/value head serves several query heads.
        repeats = q.shape[2] // k.shape[2]
        k, v = np.repeat(k, repeats, axis=2), np.repeat(v, repeats, axis=2)
    scale = 1.0 / np.sqrt(key.shape[-1]) if scale is None else scale
    logits = np.einsum("BTNH,BSNH->BNTS", q, k) * np.asarray(scale, q.dtype)
    if bias is not None:
        logits = logits + cast(to_tensor(bias), logits.dtype)
    if attn_logits_soft_cap is not None:
        cap = np.asarray(attn_logits_soft_cap, logits.dtype)
        logits = cap * np.tanh(logits / cap)
    keep = None
    if mask is not None:
        keep = to_tensor(mask).astype(bool)
    if is_causal:
        t, s = logits.shape[-2:]
        causal = np.tril(np.ones((t, s), dtype=bool))
        keep = causal if keep is None else keep & causal
    if keep is not None:
        logits = np.where(keep, logits, _large_negative(logits.dtype))
    probs = cast(softmax(cast(logits, "float32"), axis=-1), dtype)
    encoded = np.einsum("BNTS,BSNH->BTNH", cast(probs, v.dtype), v)
    return cast(encoded, dtype)


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an (N, C, H, W) input as (N, C * kH * kW, L), like torch's Unfold."""
    x = to_tensor(input)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(_pair, (kernel_size, dilation, padding, stride))
    n, c = x.shape[:2]
    x = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh = (x.shape[2] - (kh - 1) * dh - 1) // sh + 1
    ow = (x.shape[3] - (kw - 1) * dw - 1) // sw + 1
    patches = np.empty((n, c, kh, kw, oh, ow), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + (oh - 1) * sh + 1, sh)
            cols = slice(j * dw, j * dw + (ow - 1) * sw + 1, sw)
            patches[:, :, i, j] = x[:, :, rows, cols]
    return patches.reshape(n, c * kh * kw, oh * ow)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum (N, C * kH * kW, L) blocks back into (N, C, H, W), like torch's Fold."""
    x = to_tensor(x)
    (oh, ow), (kh, kw) = _pair(output_size), _pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = map(_pair, (dilation, padding, stride))
    n = x.shape[0]
    c = x.shape[1] // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    blocks = x.reshape(n, c, kh, kw, nh, nw)
    out = np.zeros((n, c, oh + 2 * ph, ow + 2 * pw), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + (nh - 1) * sh + 1, sh)
            cols = slice(j * dw, j * dw + (nw - 1) * sw + 1, sw)
            out[:, :, rows, cols] += blocks[:, :, i, j]
    return out[:, :, ph : ph + oh, pw : pw + ow]


def depth_to_space(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = block_size
    if data_format == "channels_last":
        n, h, w, c = x.shape
        x = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
        return x.reshape(n, h * b, w * b, c // (b * b))
    n, c, h, w = x.shape
    x = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return x.reshape(n, c // (b * b), h * b, w * b)


def space_to_depth(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = block_size
    if data_format == "channels_last":
        n, h, w, c = x.shape
        x = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
        return x.reshape(n, h // b, w // b, c * b * b)
    n, c, h, w = x.shape
    x = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 1, 3, 5, 2, 4)
    return x.reshape(n, c * b * b, h // b, w // b)
