"""Normalization statistics, one-hot encodings and dot-product attention."""

import math

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx, result_type, standardize_dtype


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
    """Attention over ``(batch, length, heads, head_dim)`` tensors; keys may have fewer heads."""
    if flash_attention:
        raise ValueError(
            "flash_attention=True is not supported on the tensorflow backend (no fused "
            "kernel). Pass flash_attention=None or False."
        )
    q, k, v = (convert_to_tensor(t) for t in (query, key, value))
    if q.shape.rank != 4:
        raise ValueError(
            "dot_product_attention needs 4D query/key/value (batch, length, heads, head_dim). "
            f"Received query.shape={q.shape.as_list()}."
        )
    dtype = result_type(*(standardize_dtype(t.dtype) for t in (q, k, v)))
    q, k, v = (tf.cast(t, dtype) for t in (q, k, v))
    heads, kv_heads = q.shape[2], k.shape[2]
    if heads != kv_heads:
        if heads % kv_heads:
            raise ValueError(
                f"dot_product_attention: query heads ({heads}) must be a multiple of key heads "
                f"({kv_heads})."
            )
        k = tf.repeat(k, heads // kv_heads, axis=2)
        v = tf.repeat(v, heads // kv_heads, axis=2)
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    compute = "float32" if dtype in ("float16", "bfloat16") else dtype
    logits = tf.einsum("btnh,bsnh->bnts", tf.cast(q, compute), tf.cast(k, compute))
    logits = logits * tf.cast(scale, compute)
    if attn_logits_soft_cap is not None:
        cap = tf.cast(attn_logits_soft_cap, compute)
        logits = cap * tf.tanh(logits / cap)
    if bias is not None:
        logits = logits + tf.cast(convert_to_tensor(bias), compute)
    keep = None
    if mask is not None:
        keep = tf.cast(convert_to_tensor(mask), "bool")
    if is_causal:
        t, s = tf.shape(logits)[-2], tf.shape(logits)[-1]
        causal = tf.range(s)[None, :] <= tf.range(t)[:, None] + (s - t)
        keep = causal if keep is None else tf.logical_and(keep, causal)
    if keep is not None:
        floor = tf.constant(-1e9 if compute != "float64" else -1e30, compute)
        logits = tf.where(keep, logits, floor)
    weights = tf.nn.softmax(logits, axis=-1)
    out = tf.einsum("bnts,bsnh->btnh", weights, tf.cast(v, compute))
    return tf.cast(out, dtype)


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise NotImplementedError(
            "one_hot(sparse=True) is not supported on the tensorflow backend: mb ops return "
            "dense tensors. Call it with sparse=False."
        )
    x = tf.cast(convert_to_tensor(x), "int64")
    return tf.one_hot(x, num_classes, axis=axis, dtype=dtype or floatx())


def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    inputs = convert_to_tensor(inputs)
    reduce_axis = 1 if inputs.shape.rank > 1 else 0
    encoded = one_hot(inputs, num_classes, axis=axis, dtype=dtype, sparse=sparse)
    return tf.reduce_max(encoded, axis=reduce_axis)


def moments(x, axes, keepdims=False, synchronized=False):
    """Mean and variance over `axes`; with `synchronized`, inside a replica of a
    ``tf.distribute`` strategy (mb's ``DataParallel``), over every replica's rows."""
    x = convert_to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    low_precision = dtype in ("float16", "bfloat16")
    if low_precision or not x.dtype.is_floating:
        x = tf.cast(x, "float32" if low_precision else result_type(dtype, float))
    axes = list(axes) if isinstance(axes, list | tuple) else [axes]
    if synchronized and _in_replicas():
        mean, variance = _synchronized_moments(x, axes)
    else:
        mean = tf.reduce_mean(x, axis=axes, keepdims=True)
        variance = tf.reduce_mean(tf.square(x - tf.stop_gradient(mean)), axis=axes, keepdims=True)
    if not keepdims:
        mean, variance = tf.squeeze(mean, axes), tf.squeeze(variance, axes)
    if low_precision:
        limit = tf.float16.max
        mean = tf.cast(tf.clip_by_value(mean, -limit, limit), dtype)
        variance = tf.cast(tf.clip_by_value(variance, -limit, limit), dtype)
    return mean, variance


def _in_replicas():
    """Whether this code runs in one replica of a strategy of several replicas."""
    if not tf.distribute.has_strategy() or tf.distribute.in_cross_replica_context():
        return False
    return tf.distribute.get_replica_context().num_replicas_in_sync > 1


def _synchronized_moments(x, axes):
    """The moments of every replica's rows together: their sums, sums of squares and
    counts, summed over the replicas in one all-reduce (a replica with no rows adds
    zeros), kept dimensions."""
    context = tf.distribute.get_replica_context()
    local_sum = tf.reduce_sum(x, axis=axes, keepdims=True)
    local_squares = tf.reduce_sum(tf.square(x), axis=axes, keepdims=True)
    local_count = tf.reduce_sum(tf.ones_like(x), axis=axes, keepdims=True)
    total, squares, count = context.all_reduce(
        tf.distribute.ReduceOp.SUM, [local_sum, local_squares, local_count]
    )
    mean = tf.math.divide_no_nan(total, count)
    variance = tf.maximum(tf.math.divide_no_nan(squares, count) - tf.square(mean), 0.0)
    return mean, variance


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    x = convert_to_tensor(x)
    rank = x.shape.rank
    shape = [1] * rank
    shape[axis % rank] = -1

    def prep(t):
        return None if t is None else tf.reshape(tf.cast(convert_to_tensor(t), x.dtype), shape)

    return tf.nn.batch_normalization(
        x, prep(mean), prep(variance), prep(offset), prep(scale), variance_epsilon=epsilon
    )
