"""Normalization statistics, one-hot encodings and dot-product attention."""

import math

import jax
import jax.nn as jnn
import jax.numpy as jnp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import dtypes


def _gpu_cudnn_possible(query, bias):
    # cuDNN flash attention: GPU, 16-bit floats, head size a multiple of 8.
    return (
        jax.default_backend() == "gpu"
        and dtypes.standardize_dtype(query.dtype) in ("float16", "bfloat16")
        and query.shape[-1] % 8 == 0
        and bias is None
    )


def _reference_attention(query, key, value, bias, mask, scale, is_causal, soft_cap):
    # query (B, T, N, H); key/value (B, S, K, H) with N a multiple of K (GQA).
    n_heads, kv_heads = query.shape[2], key.shape[2]
    if n_heads != kv_heads:
        key = jnp.repeat(key, n_heads // kv_heads, axis=2)
        value = jnp.repeat(value, n_heads // kv_heads, axis=2)
    logits_dtype = jnp.promote_types(query.dtype, jnp.float32)
    logits = jnp.einsum("btnh,bsnh->bnts", query, key, preferred_element_type=logits_dtype)
    logits = logits * jnp.asarray(scale, logits_dtype)
    if soft_cap is not None:
        logits = soft_cap * jnp.tanh(logits / soft_cap)
    if bias is not None:
        logits = logits + bias.astype(logits_dtype)
    keep = None
    if mask is not None:
        keep = jnp.asarray(mask, bool)
    if is_causal:
        t, s = logits.shape[-2:]
        causal = jnp.tril(jnp.ones((t, s), bool))
        keep = causal if keep is None else jnp.logical_and(keep, causal)
    if keep is not None:
        logits = jnp.where(keep, logits, jnp.asarray(-0.7 * jnp.finfo(logits_dtype).max))
    probs = jax.nn.softmax(logits.astype(jnp.float32), axis=-1).astype(value.dtype)
    return jnp.einsum("bnts,bsnh->btnh", probs, value)


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
    """Attention over ``(batch, time, heads, depth)`` inputs.

    Args:
        query: ``(B, T, N, H)``; key and value: ``(B, S, K, H)`` with ``N``
            a multiple of ``K`` (grouped-query attention).
        bias, mask: broadcastable to ``(B, N, T, S)``; ``mask`` is boolean
            (True keeps a position).
        scale: defaults to ``1 / sqrt(H)``.
        is_causal: hide future positions.
        flash_attention: None picks cuDNN where possible (GPU, 16-bit);
            True requires it and raises if it cannot run.
        attn_logits_soft_cap: cap logits with ``c * tanh(logits / c)``.

    Returns:
        ``(B, T, N, H)``.
    """
    query = convert_to_tensor(query)
    key = convert_to_tensor(key)
    value = convert_to_tensor(value)
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise ValueError(
            "dot_product_attention expects 4-D (batch, time, heads, depth) inputs. Received "
            f"query.shape={query.shape}, key.shape={key.shape}, value.shape={value.shape}."
        )
    dtype = dtypes.result_type(query.dtype, key.dtype, value.dtype)
    query, key, value = cast(query, dtype), cast(key, dtype), cast(value, dtype)
    if bias is not None:
        bias = convert_to_tensor(bias, dtype=dtype)
    if mask is not None:
        mask = convert_to_tensor(mask, dtype="bool")
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    if attn_logits_soft_cap is None:
        wants_cudnn = flash_attention is True or (
            flash_attention is None and _gpu_cudnn_possible(query, bias)
        )
        if wants_cudnn:
            try:
                return jax.nn.dot_product_attention(
                    query, key, value, bias=bias, mask=mask, scale=scale,
                    is_causal=is_causal, implementation="cudnn",
                )  # fmt: skip
            except (ValueError, NotImplementedError, RuntimeError) as exc:
                if flash_attention is True:
                    raise ValueError(
                        "dot_product_attention(flash_attention=True) cannot run here: "
                        f"{exc}. It needs a GPU with cuDNN, float16/bfloat16 inputs and a "
                        "head size that is a multiple of 8; pass flash_attention=None."
                    ) from exc
    elif flash_attention is True:
        raise ValueError(
            "dot_product_attention cannot combine flash_attention=True with "
            "attn_logits_soft_cap on the jax backend. Drop one of the two."
        )
    return _reference_attention(
        query, key, value, bias, mask, scale, is_causal, attn_logits_soft_cap
    )


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encoding of int ``x`` along a new ``axis``; negatives give zeros."""
    if sparse:
        raise ValueError(
            "one_hot on the jax backend of mb has no sparse output. Pass sparse=False."
        )
    x = convert_to_tensor(x)
    return jnn.one_hot(x, num_classes, axis=axis, dtype=dtypes.standardize_dtype(dtype))


def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    """Multi-hot encoding: 1 for every class present in each row of ``x``."""
    if sparse:
        raise ValueError(
            "multi_hot on the jax backend of mb has no sparse output. Pass sparse=False."
        )
    inputs = convert_to_tensor(inputs)
    reduction_axis = 1 if inputs.ndim > 1 else 0
    encoded = one_hot(cast(inputs, "int32"), num_classes, axis=axis, dtype=dtype)
    return jnp.max(encoded, axis=reduction_axis)


def moments(x, axes, keepdims=False, synchronized=False):
    """Mean and variance over ``axes`` (16-bit floats are computed in float32)."""
    if synchronized:
        raise NotImplementedError(
            "moments(synchronized=True) is not supported on the jax backend: there is "
            "no cross-replica reduction outside a distribution strategy. Pass synchronized=False."
        )
    x = convert_to_tensor(x)
    original = dtypes.standardize_dtype(x.dtype)
    low_precision = original in ("float16", "bfloat16")
    if low_precision:
        x = cast(x, "float32")
    axes = tuple(axes) if isinstance(axes, list | tuple) else axes
    mean = jnp.mean(x, axis=axes, keepdims=keepdims)
    variance = jnp.var(x, axis=axes, keepdims=keepdims)
    if low_precision:
        limit = float(jnp.finfo(jnp.float16).max)
        mean = cast(jnp.clip(mean, -limit, limit), original)
        variance = cast(jnp.clip(variance, -limit, limit), original)
    return mean, variance


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """``(x - mean) / sqrt(variance + epsilon) * scale + offset`` along ``axis``."""
    x = convert_to_tensor(x)
    shape = [1] * x.ndim
    shape[axis] = -1
    inv = jax.lax.rsqrt(jnp.reshape(convert_to_tensor(variance), shape) + epsilon)
    if scale is not None:
        inv = inv * jnp.reshape(convert_to_tensor(scale), shape)
    shift = -jnp.reshape(convert_to_tensor(mean), shape) * inv
    if offset is not None:
        shift = shift + jnp.reshape(convert_to_tensor(offset), shape)
    return x * inv + shift
