"""Random numbers of the TensorFlow backend: TF's stateless random ops.

Every function turns ``seed`` (an int, an ``mb_ops.random.SeedGenerator``, a
seed tensor, or None for the global generator) into a key with
``mb_ops.random.draw_seed``, so the same seed gives the same numbers, and a
SeedGenerator's state advances like any other variable (stateless scopes
included).
"""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx, standardize_dtype
from mb_ops.random import draw_seed

UNSUPPORTED = {}


def _key(seed):
    """A (2,) int32 key for TF's stateless ops (which take int32/int64 seeds)."""
    key = convert_to_tensor(draw_seed(seed))
    if standardize_dtype(key.dtype) == "int32":
        return key
    return tf.cast(tf.math.floormod(tf.cast(key, "int64"), tf.int32.max - 1), "int32")


def _dtype(dtype):
    return standardize_dtype(dtype) if dtype is not None else floatx()


def _compute(dtype):
    # bfloat16 has no stateless kernels for every distribution: draw in float32.
    return "float32" if dtype == "bfloat16" else dtype


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = _dtype(dtype)
    out = tf.random.stateless_normal(shape, seed=_key(seed), dtype=_compute(dtype))
    return tf.cast(out * tf.cast(stddev, out.dtype) + tf.cast(mean, out.dtype), dtype)


def _uniform(shape, minval, maxval, compute, dtype, seed):
    """Stateless uniform draws in ``[minval, maxval)`` made in ``compute``, cast to ``dtype``."""
    out = tf.random.stateless_uniform(
        shape,
        seed=_key(seed),
        minval=tf.cast(minval, compute),
        maxval=tf.cast(maxval, compute),
        dtype=compute,
    )
    return tf.cast(out, dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    dtype = _dtype(dtype)
    return _uniform(shape, minval, maxval, _compute(dtype), dtype, seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = _dtype(dtype)
    out = tf.random.stateless_truncated_normal(shape, seed=_key(seed), dtype=_compute(dtype))
    return tf.cast(out * tf.cast(stddev, out.dtype) + tf.cast(mean, out.dtype), dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    dtype = standardize_dtype(dtype)
    compute = dtype if dtype in ("int32", "int64") else "int64"
    return _uniform(shape, minval, maxval, compute, dtype, seed)


def categorical(logits, num_samples, dtype="int32", seed=None):
    logits = convert_to_tensor(logits)
    if not logits.dtype.is_floating:
        logits = tf.cast(logits, floatx())
    out = tf.random.stateless_categorical(logits, num_samples, seed=_key(seed))
    return tf.cast(out, dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = convert_to_tensor(inputs)
    if rate == 1.0:
        return tf.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    shape = tf.shape(inputs)
    if noise_shape is not None:
        shape = [shape[i] if d is None else d for i, d in enumerate(noise_shape)]
    return tf.nn.experimental.stateless_dropout(
        inputs, rate=rate, noise_shape=shape, seed=_key(seed)
    )


def shuffle(x, axis=0, seed=None):
    x = convert_to_tensor(x)
    keys = tf.random.stateless_uniform([tf.shape(x)[axis]], seed=_key(seed))
    return tf.gather(x, tf.argsort(keys), axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    dtype = _dtype(dtype)
    compute = _compute(dtype)
    out = tf.random.stateless_gamma(
        shape, seed=_key(seed), alpha=tf.cast(alpha, compute), dtype=compute
    )
    return tf.cast(out, dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    dtype = _dtype(dtype)
    compute = _compute(dtype)
    out = tf.random.stateless_binomial(
        shape,
        seed=_key(seed),
        counts=tf.cast(counts, compute),
        probs=tf.cast(probabilities, compute),
        output_dtype=compute,
    )
    return tf.cast(out, dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    dtype = _dtype(dtype)
    compute = _compute(dtype)
    key = _key(seed)
    alpha = tf.broadcast_to(tf.cast(alpha, compute), shape)
    beta = tf.broadcast_to(tf.cast(beta, compute), shape)
    ga = tf.random.stateless_gamma(shape, seed=key, alpha=alpha, dtype=compute)
    gb = tf.random.stateless_gamma(shape, seed=key + 12, alpha=beta, dtype=compute)
    return tf.cast(ga / (ga + gb), dtype)
