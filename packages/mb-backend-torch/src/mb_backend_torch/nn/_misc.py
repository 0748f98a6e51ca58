"""Normalization statistics, one-hot encodings and dot-product attention."""

import contextlib
import math

import torch
import torch.nn.functional as tnn
from torch.nn.attention import SDPBackend, sdpa_kernel

from mb_backend_torch._dtypes import _result_many, to_torch_dtype
from mb_backend_torch.numpy._common import floatx, t, to_float
from mb_ops import config


def _flash_possible(query, key, value, mask, is_causal):
    if query.device.type != "cuda" or mask is not None:
        return False
    try:
        params = torch.backends.cuda.SDPAParams(query, key, value, None, 0.0, is_causal, False)
    except (AttributeError, TypeError):
        return False
    return torch.backends.cuda.can_use_flash_attention(params, False)


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
    query, key, value = t(query), t(key), t(value)
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise ValueError(
            "dot_product_attention expects query, key and value of rank 4 "
            "(batch, length, heads, head_dim). Received shapes "
            f"{tuple(query.shape)}, {tuple(key.shape)}, {tuple(value.shape)}."
        )
    if bias is not None and mask is not None:
        raise ValueError("dot_product_attention: pass either bias or mask, not both.")
    dtype = _result_many((query.dtype, key.dtype, value.dtype), config.floatx())
    # (batch, length, heads, dim) -> (batch, heads, length, dim)
    q = query.to(dtype).transpose(1, 2)
    k = key.to(dtype).transpose(1, 2)
    v = value.to(dtype).transpose(1, 2)
    if q.shape[1] != k.shape[1]:
        if q.shape[1] % k.shape[1]:
            raise ValueError(
                f"dot_product_attention: {q.shape[1]} query heads are not a multiple of "
                f"{k.shape[1]} key/value heads."
            )
        groups = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(groups, dim=1)
        v = v.repeat_interleave(groups, dim=1)
    attn_mask = None
    if mask is not None:
        attn_mask = t(mask).to(device=q.device, dtype=torch.bool)
        if is_causal:
            causal = torch.ones((q.shape[2], k.shape[2]), dtype=torch.bool, device=q.device).tril()
            attn_mask = attn_mask & causal
            is_causal = False
    if bias is not None:
        attn_mask = t(bias).to(device=q.device, dtype=dtype)
    if attn_logits_soft_cap is not None:
        return _explicit(q, k, v, attn_mask, scale, is_causal, attn_logits_soft_cap)
    if flash_attention is True and not _flash_possible(q, k, v, attn_mask, is_causal):
        raise RuntimeError(
            "dot_product_attention(flash_attention=True): flash attention cannot run for "
            f"these inputs on {q.device} (it needs CUDA, float16/bfloat16 and no mask). "
            "Pass flash_attention=None to choose automatically."
        )
    # False: every kernel but flash (torch would otherwise pick its flash kernel by
    # itself, on CPU too), so mb.config.disable_flash_attention() means what it says.
    kernels = sdpa_kernel(_NOT_FLASH) if flash_attention is False else contextlib.nullcontext()
    with kernels:
        out = tnn.scaled_dot_product_attention(
            q.contiguous(),
            k.contiguous(),
            v.contiguous(),
            attn_mask=attn_mask,
            is_causal=is_causal,
            scale=scale,
        )
    return out.transpose(1, 2)


_NOT_FLASH = [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION, SDPBackend.MATH]


def _explicit(q, k, v, attn_mask, scale, is_causal, soft_cap):
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    logits = torch.matmul(q, k.transpose(-1, -2)) * scale
    logits = soft_cap * torch.tanh(logits / soft_cap)
    if attn_mask is not None:
        if attn_mask.dtype is torch.bool:
            logits = logits.masked_fill(~attn_mask, float("-inf"))
        else:
            logits = logits + attn_mask
    if is_causal:
        causal = torch.ones(logits.shape[-2:], dtype=torch.bool, device=q.device).tril()
        logits = logits.masked_fill(~causal, float("-inf"))
    weights = torch.softmax(logits.float(), dim=-1).to(q.dtype)
    return torch.matmul(weights, v).transpose(1, 2)


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise ValueError("one_hot(sparse=True) is not supported on the torch backend.")
    x = t(x).to(torch.int64)
    dtype = to_torch_dtype(dtype) if dtype is not None else floatx()
    out = tnn.one_hot(x.clamp_min(0), num_classes)
    out = (out * (x >= 0).unsqueeze(-1)).to(dtype)
    if axis != -1 and axis != out.ndim - 1:
        out = torch.moveaxis(out, -1, axis)
    return out


def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise ValueError("multi_hot(sparse=True) is not supported on the torch backend.")
    inputs = t(inputs)
    reduce_axis = 1 if inputs.ndim > 1 else 0
    encoded = one_hot(inputs, num_classes, axis=axis, dtype=dtype)
    return torch.amax(encoded, dim=reduce_axis)


def moments(x, axes, keepdims=False, synchronized=False):
    if synchronized:
        raise NotImplementedError(
            "moments(synchronized=True) is not supported on the torch backend: "
            "there is no cross-replica reduction outside torch.distributed."
        )
    x = to_float(x)
    dtype = x.dtype
    if dtype in (torch.float16, torch.bfloat16):
        x = x.float()
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    axes = axes or tuple(range(x.ndim))  # () reduces every axis, as torch.mean's dim=()
    # Two passes (the mean, then the mean of the centred squares) instead of
    # ``torch.var_mean``: on the CPU, var_mean's Welford reduction runs about 10x slower
    # than two vectorized mean reductions (forward) and 1.5-2x slower with its backward,
    # for batch-norm (N, H, W reduced) and layer-norm (last axis) shapes alike.
    mean = torch.mean(x, dim=axes, keepdim=True)
    variance = torch.mean(torch.square(x - mean), dim=axes, keepdim=keepdims)
    if not keepdims:
        mean = mean.squeeze(axes)
    if dtype is not x.dtype:
        info = torch.finfo(dtype)
        mean = mean.clamp(info.min, info.max).to(dtype)
        variance = variance.clamp(info.min, info.max).to(dtype)
    return mean, variance


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    x = to_float(x)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    inv = torch.rsqrt(t(variance).reshape(shape) + epsilon)
    if scale is not None:
        inv = inv * t(scale).reshape(shape)
    # x * inv + (offset - mean * inv), as Keras's jax backend and tf.nn.batch_normalization
    # compute it: one pass over x (addcmul) instead of a subtraction, a product and a sum.
    shift = -t(mean).reshape(shape) * inv
    if offset is not None:
        shift = shift + t(offset).reshape(shape)
    return torch.addcmul(shift.to(x.dtype), x, inv.to(x.dtype))


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta`` over ``axis``.

    When the normalized axes are the trailing ones, torch's fused ``layer_norm`` kernel
    computes it (one pass forward, one backward, as ``nn.LayerNorm``); otherwise the
    statistics come from ``moments`` and the rest is elementwise.
    """
    x = to_float(x)
    eps = config.epsilon() if epsilon is None else float(epsilon)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = sorted(a % x.ndim for a in axes)
    dtype = x.dtype
    compute = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
    xc = x.to(compute)
    gamma = None if gamma is None else t(gamma).to(compute)
    beta = None if beta is None else t(beta).to(compute)
    trailing = axes == list(range(x.ndim - len(axes), x.ndim))
    shape = tuple(x.shape[a] for a in axes)
    if trailing and all(p is None or p.numel() == math.prod(shape) for p in (gamma, beta)):
        weight = None if gamma is None else gamma.reshape(shape)
        bias = None if beta is None else beta.reshape(shape)
        out = tnn.layer_norm(xc, shape, weight, bias, eps)
    else:
        mean, variance = moments(xc, axes, keepdims=True)
        out = (xc - mean) * torch.rsqrt(variance + eps)
        if gamma is not None:
            out = out * gamma
        if beta is not None:
            out = out + beta
    return out.to(dtype)
