"""Creating tensors: ranges, constants, identity-like matrices, windows, grids."""

import math as pymath

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._dtypes import dtype_of, floatx, result_type, standardize_dtype
from mb_backend_tensorflow.numpy._common import dt, tensor


def _dtype_or_floatx(dtype):
    return standardize_dtype(dtype) if dtype is not None else floatx()


def _shape(shape):
    if isinstance(shape, int):
        return [shape]
    return shape


def array(x, dtype=None):
    return tensor(x, dtype)


def zeros(shape, dtype=None):
    return tf.zeros(_shape(shape), dtype=_dtype_or_floatx(dtype))


def ones(shape, dtype=None):
    return tf.ones(_shape(shape), dtype=_dtype_or_floatx(dtype))


def empty(shape, dtype=None):
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    dtype = _dtype_or_floatx(dtype)
    return tf.broadcast_to(tensor(fill_value, dtype), _shape(shape))


def zeros_like(x, dtype=None):
    x = tensor(x)
    return tf.zeros_like(x, dtype=dtype or x.dtype)


def ones_like(x, dtype=None):
    x = tensor(x)
    return tf.ones_like(x, dtype=dtype or x.dtype)


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    x = tensor(x)
    dtype = standardize_dtype(dtype) if dtype is not None else dt(x)
    return tf.broadcast_to(tensor(fill_value, dtype), tf.shape(x))


def arange(start, stop=None, step=None, dtype=None):
    if dtype is None:
        found = [dtype_of(v) for v in (start, stop, step) if v is not None]
        dtype = result_type(*found)
    dtype = standardize_dtype(dtype)
    step = 1 if step is None else step
    if stop is None:
        start, stop = 0, start
    compute = dtype
    if dtype in ("bool", "int8", "int16", "uint8", "uint16", "uint32", "float16", "bfloat16"):
        compute = "float32" if "float" in dtype else "int64"
    out = tf.range(
        tf.cast(tensor(start), compute),
        tf.cast(tensor(stop), compute),
        tf.cast(tensor(step), compute),
    )
    return tf.cast(out, dtype)


def eye(N, M=None, k=0, dtype=None):
    dtype = _dtype_or_floatx(dtype)
    M = N if M is None else M
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return tf.cast(tf.equal(cols - rows, k), dtype)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    dtype = _dtype_or_floatx(dtype)
    M = N if M is None else M
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return tf.cast(cols - rows <= k, dtype)


def _space_dtypes(start, stop, dtype):
    """The result dtype of a ``*space`` op (None: promoted from start, stop and float) and
    the float dtype it is computed in (float64 for 64-bit results, else float32)."""
    if dtype is None:
        dtype = result_type(dtype_of(start), dtype_of(stop), float)
    dtype = standardize_dtype(dtype)
    return dtype, "float64" if dtype in ("float64", "int64") else "float32"


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    if num < 0:
        raise ValueError(f"linspace needs a non-negative num. Received num={num}.")
    dtype, compute = _space_dtypes(start, stop, dtype)
    start = tf.cast(tensor(start), compute)
    stop = tf.cast(tensor(stop), compute)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else tf.fill(tf.shape(stop - start), np.nan)
    step = tf.cast(step, compute)
    steps = tf.range(num, dtype=compute)
    shape = tf.concat([[num], tf.ones([tf.rank(start + stop)], "int32")], 0)
    steps = tf.reshape(steps, shape)
    out = (
        tf.expand_dims(start, 0) + steps * tf.expand_dims(step, 0)
        if div > 0
        else (tf.expand_dims(start, 0) + tf.zeros_like(steps) * tf.expand_dims(stop, 0))
    )
    if endpoint and num > 1:
        out = tf.concat([out[:-1], tf.expand_dims(stop + tf.zeros_like(start), 0)], 0)
    rank = out.shape.rank
    if rank is not None and rank > 1:
        axis = axis % rank
        perm = list(range(1, rank))
        perm.insert(axis, 0)
        out = tf.transpose(out, perm)
    if "int" in dtype:
        out = tf.floor(out)
    out = tf.cast(out, dtype)
    if retstep:
        return out, tf.cast(step, dtype)
    return out


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    dtype, compute = _space_dtypes(start, stop, dtype)
    exps = linspace(start, stop, num=num, endpoint=endpoint, dtype=compute, axis=axis)
    return tf.cast(tf.pow(tf.cast(base, compute), exps), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    dtype, compute = _space_dtypes(start, stop, dtype)
    start = tf.cast(tensor(start), compute)
    stop = tf.cast(tensor(stop), compute)
    sign = tf.where(start < 0, tf.constant(-1.0, compute), tf.constant(1.0, compute))
    logs = linspace(
        tf.math.log(tf.abs(start)) / pymath.log(10.0),
        tf.math.log(tf.abs(stop)) / pymath.log(10.0),
        num=num,
        endpoint=endpoint,
        dtype=compute,
        axis=0,
    )
    out = sign * tf.pow(tf.constant(10.0, compute), logs)
    if num > 0:
        # Pin the ends exactly, as NumPy does.
        first = tf.expand_dims(start + tf.zeros_like(stop), 0)
        if endpoint and num > 1:
            last = tf.expand_dims(stop + tf.zeros_like(start), 0)
            out = tf.concat([first, out[1:-1], last], 0)
        else:
            out = tf.concat([first, out[1:]], 0)
    rank = out.shape.rank
    if rank is not None and rank > 1:
        axis = axis % rank
        perm = list(range(1, rank))
        perm.insert(axis, 0)
        out = tf.transpose(out, perm)
    return tf.cast(out, dtype)


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid got indexing={indexing!r}. Expected 'xy' or 'ij'.")
    return tf.meshgrid(*[tensor(v) for v in x], indexing=indexing)


def _window_n(x):
    return int(tensor(x, "int32").numpy()) if tf.executing_eagerly() else tensor(x, "int32")


def bartlett(x):
    n = tensor(x, "int32")
    k = tf.range(n, dtype=floatx())
    denom = tf.cast(n, floatx()) - 1.0
    safe = tf.where(denom > 0, denom, tf.ones_like(denom))
    out = 1.0 - tf.abs(2.0 * k / safe - 1.0)
    return tf.where(denom > 0, out, tf.ones_like(out))


def blackman(x):
    n = tensor(x, "int32")
    k = tf.range(n, dtype=floatx())
    denom = tf.cast(n, floatx()) - 1.0
    safe = tf.where(denom > 0, denom, tf.ones_like(denom))
    out = (
        0.42 - 0.5 * tf.cos(2.0 * pymath.pi * k / safe) + 0.08 * tf.cos(4.0 * pymath.pi * k / safe)
    )
    return tf.where(denom > 0, out, tf.ones_like(out))


def _cosine_window(x, alpha):
    n = tensor(x, "int32")
    k = tf.range(n, dtype=floatx())
    denom = tf.cast(n, floatx()) - 1.0
    safe = tf.where(denom > 0, denom, tf.ones_like(denom))
    out = alpha - (1.0 - alpha) * tf.cos(2.0 * pymath.pi * k / safe)
    return tf.where(denom > 0, out, tf.ones_like(out))


def hamming(x):
    return _cosine_window(x, 0.54)


def hanning(x):
    return _cosine_window(x, 0.5)


def kaiser(x, beta):
    n = tensor(x, "int32")
    k = tf.range(n, dtype=floatx())
    denom = tf.cast(n, floatx()) - 1.0
    safe = tf.where(denom > 0, denom, tf.ones_like(denom))
    ratio = 2.0 * k / safe - 1.0
    beta = tf.cast(beta, floatx())
    arg = beta * tf.sqrt(tf.maximum(1.0 - ratio * ratio, 0.0))
    out = tf.math.bessel_i0(arg) / tf.math.bessel_i0(beta)
    return tf.where(denom > 0, out, tf.ones_like(out))
