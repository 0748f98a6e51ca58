"""Normalization statistics, one-hot encodings and dot-product attention."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.nn._activations import softmax
from mb_backend_numpy.numpy._common import cast
from mb_ops import config, numpy_shaped


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
    query, key, value = to_tensor(query), to_tensor(key), to_tensor(value)
    numpy_shaped.check_attention_arguments("numpy", flash_attention, query, key, value)
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


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise ValueError(
            "one_hot(sparse=True) is not supported on the numpy backend: it has no sparse "
            "tensors. Pass sparse=False."
        )
    x = to_tensor(x).astype("int64", copy=False)
    dtype = dtype or config.floatx()
    num_classes = int(num_classes) if num_classes else int(np.max(x)) + 1
    out = (x[..., None] == np.arange(num_classes)).astype(cast(0, dtype).dtype)
    if axis != -1:
        out = np.moveaxis(out, -1, axis)
    return out


def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise ValueError(
            "multi_hot(sparse=True) is not supported on the numpy backend: it has no sparse "
            "tensors. Pass sparse=False."
        )
    inputs = to_tensor(inputs)
    reduce_axis = 1 if inputs.ndim > 1 else 0
    return np.max(one_hot(inputs, num_classes, axis=axis, dtype=dtype), axis=reduce_axis)
