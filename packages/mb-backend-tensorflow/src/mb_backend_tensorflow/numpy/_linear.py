"""Products and linear-algebra flavoured ops: matmul, dot, einsum, diagonals, triangles."""

import re
import string

import tensorflow as tf

from mb_backend_tensorflow._dtypes import floatx, result_type
from mb_backend_tensorflow.numpy._common import canonical_axis, dt, promote, tensor


def _compute_dtypes(x1, x2, int8_to_int32=False):
    """(compute, result): int products run in a float (GPU/XLA matmuls are float-only)."""
    if int8_to_int32 and dt(x1) == "int8" and dt(x2) == "int8":
        return "int32", "int32"
    result = result_type(dt(x1), dt(x2))
    compute = result
    if result == "bool" or "int" in result:
        compute = "float64" if result in ("int64", "uint32", "uint64") else floatx()
    return compute, result


def _cast(x, dtype):
    return x if x.dtype.name == dtype else tf.cast(x, dtype)


def _finish(out, compute, result):
    if compute != result and "int" in result:
        out = tf.round(out) if out.dtype.is_floating else out
    return _cast(out, result)


def matmul(x1, x2):
    x1, x2 = tensor(x1), tensor(x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        raise ValueError(
            "matmul does not accept scalars; use multiply. Received shapes "
            f"{x1.shape.as_list()} and {x2.shape.as_list()}."
        )
    compute, result = _compute_dtypes(x1, x2, int8_to_int32=True)
    x1, x2 = _cast(x1, compute), _cast(x2, compute)
    if x1.shape.rank == 1 and x2.shape.rank == 1:
        out = tf.tensordot(x1, x2, axes=1)
    elif x2.shape.rank == 1:
        out = tf.squeeze(tf.linalg.matmul(x1, x2[:, None]), -1)
    elif x1.shape.rank == 1:
        out = tf.squeeze(tf.linalg.matmul(x1[None, :], x2), -2)
    else:
        out = tf.linalg.matmul(x1, x2)
    return _finish(out, compute, result)


def dot(x1, x2):
    x1, x2 = tensor(x1), tensor(x2)
    compute, result = _compute_dtypes(x1, x2)
    x1, x2 = _cast(x1, compute), _cast(x2, compute)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        out = x1 * x2
    elif x2.shape.rank == 1:
        out = tf.tensordot(x1, x2, axes=[[-1], [-1]])
    else:
        out = tf.tensordot(x1, x2, axes=[[-1], [-2]])
    return _finish(out, compute, result)


def tensordot(x1, x2, axes=2):
    x1, x2 = tensor(x1), tensor(x2)
    compute, result = _compute_dtypes(x1, x2)
    out = tf.tensordot(tf.cast(x1, compute), tf.cast(x2, compute), axes=axes)
    return _finish(out, compute, result)


def vdot(x1, x2):
    x1, x2 = tensor(x1), tensor(x2)
    compute, result = _compute_dtypes(x1, x2)
    a = tf.reshape(tf.cast(x1, compute), [-1])
    b = tf.reshape(tf.cast(x2, compute), [-1])
    if a.dtype.is_complex:
        a = tf.math.conj(a)
    return _finish(tf.tensordot(a, b, axes=1), compute, result)


def inner(x1, x2):
    x1, x2 = tensor(x1), tensor(x2)
    compute, result = _compute_dtypes(x1, x2)
    x1, x2 = tf.cast(x1, compute), tf.cast(x2, compute)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        out = x1 * x2
    else:
        out = tf.tensordot(x1, x2, axes=[[-1], [-1]])
    return _finish(out, compute, result)


def outer(x1, x2):
    (x1, x2), _ = promote(x1, x2)
    a, b = tf.reshape(x1, [-1, 1]), tf.reshape(x2, [1, -1])
    if a.dtype.is_bool:
        return tf.logical_and(a, b)
    return a * b


def _normalize_subscripts(subscripts):
    # tf.einsum accepts only ASCII letters in a limited alphabet: rename them.
    mapping = {}
    out = []
    for ch in subscripts:
        if ch in string.ascii_letters:
            if ch not in mapping:
                mapping[ch] = string.ascii_letters[len(mapping)]
            out.append(mapping[ch])
        else:
            out.append(ch)
    return "".join(out)


def einsum(subscripts, *operands, **kwargs):
    operands = [tensor(op) for op in operands]
    dtypes = [dt(op) for op in operands]
    if dtypes and all(d == "int8" for d in dtypes):
        result, compute = "int32", floatx()
    else:
        result = result_type(*dtypes)
        compute = result
        if result == "bool" or "int" in result:
            compute = "float64" if result in ("int64", "uint32", "uint64") else floatx()
    operands = [tf.cast(op, compute) for op in operands]
    out = tf.einsum(_normalize_subscripts(re.sub(r"\s", "", subscripts)), *operands, **kwargs)
    return _finish(out, compute, result)


def _dims(x):
    """Static dims where known, run-time ones (scalar tensors) elsewhere."""
    dims = x.shape.as_list()
    if None in dims:
        dynamic = tf.shape(x)
        dims = [dynamic[i] if d is None else d for i, d in enumerate(dims)]
    return dims


def kron(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    rank = max(x1.shape.rank, x2.shape.rank)
    a_shape = [1] * (rank - x1.shape.rank) + _dims(x1)
    b_shape = [1] * (rank - x2.shape.rank) + _dims(x2)
    a_exp = tf.reshape(x1, [d for pair in zip(a_shape, [1] * rank, strict=True) for d in pair])
    b_exp = tf.reshape(x2, [d for pair in zip([1] * rank, b_shape, strict=True) for d in pair])
    if dtype == "bool":
        out = tf.logical_and(a_exp, b_exp)
    else:
        out = a_exp * b_exp
    return tf.reshape(out, [p * q for p, q in zip(a_shape, b_shape, strict=True)])


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    (x1, x2), _dtype = promote(x1, x2)
    a = tf.experimental.numpy.moveaxis(x1, axisa, -1)
    b = tf.experimental.numpy.moveaxis(x2, axisb, -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(
            "cross needs vectors of length 2 or 3 along the chosen axes. Received lengths "
            f"{na} and {nb} (shapes {x1.shape.as_list()} and {x2.shape.as_list()})."
        )
    if na == 2 and nb == 2:
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    if na == 2:
        a = tf.concat([a, tf.zeros_like(a[..., :1])], -1)
    if nb == 2:
        b = tf.concat([b, tf.zeros_like(b[..., :1])], -1)
    a0, a1, a2 = tf.unstack(a, axis=-1)
    b0, b1, b2 = tf.unstack(b, axis=-1)
    out = tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return tf.experimental.numpy.moveaxis(out, -1, axisc)


def correlate(x1, x2, mode="valid"):
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"correlate got mode={mode!r}. Expected 'valid', 'same' or 'full'.")
    x1, x2 = tensor(x1), tensor(x2)
    dtype = result_type(dt(x1), dt(x2))
    if dtype == "int64":
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16", "float64"):
        dtype = "float32"
    a, v = tf.cast(x1, dtype), tf.cast(x2, dtype)
    n, m = _dims(a)[0], _dims(v)[0]
    padded = tf.pad(a, [[m - 1, m - 1]])
    full = tf.nn.conv1d(
        tf.reshape(padded, [1, -1, 1]), tf.reshape(v, [m, 1, 1]), stride=1, padding="VALID"
    )
    full = tf.reshape(full, [-1])  # length n + m - 1; full[k] is lag k - (m - 1)
    if mode == "full":
        return full
    longer, shorter = tf.maximum(n, m), tf.minimum(n, m)
    if mode == "same":
        start = (n + m - 1 - longer) // 2
        return full[start : start + longer]
    return full[shorter - 1 : longer]


def corrcoef(x):
    x = tensor(x)
    if dt(x) in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        x = tf.cast(x, floatx())
    elif dt(x) == "int64":
        x = tf.cast(x, "float64")
    if x.shape.rank == 0:
        return tf.constant(float("nan"), floatx())
    if x.shape.rank == 1:
        x = x[None, :]
    centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
    n = tf.cast(tf.shape(x)[-1], x.dtype)
    cov = tf.linalg.matmul(centered, centered, adjoint_b=True) / (n - 1)
    std = tf.sqrt(tf.math.real(tf.linalg.diag_part(cov)))
    std = tf.cast(std, cov.dtype)
    corr = cov / (std[:, None] * std[None, :])
    if corr.dtype.is_complex:
        return corr
    corr = tf.clip_by_value(corr, -1.0, 1.0)
    return tf.squeeze(corr) if corr.shape == (1, 1) else corr


def slogdet(x):
    x = tensor(x)
    if not x.dtype.is_floating:
        x = tf.cast(x, floatx())
    sign, logdet = tf.linalg.slogdet(x)
    return sign, logdet


# ----- vectorize -------------------------------------------------------------------


def vander(x, N=None, increasing=False):
    x = tensor(x)
    if x.shape.rank != 1:
        raise ValueError(f"vander needs a 1-D input. Received shape {x.shape.as_list()}.")
    n = x.shape[0] if N is None else N
    powers = tf.range(n)
    if not increasing:
        powers = tf.reverse(powers, [0])
    dtype = dt(x)
    compute = "int64" if ("int" in dtype or dtype == "bool") else dtype
    out = tf.pow(tf.cast(x, compute)[:, None], tf.cast(powers, compute)[None, :])
    return tf.cast(out, "int32" if dtype == "bool" else dtype)


def diag(x, k=0):
    x = tensor(x)
    if x.shape.rank == 1:
        return tf.linalg.diag(x, k=k)
    if x.shape.rank == 2:
        return tf.linalg.diag_part(x, k=k, padding_value=0)
    raise ValueError(f"diag needs a 1-D or 2-D input. Received shape {x.shape.as_list()}.")


def diagflat(x, k=0):
    return diag(tf.reshape(tensor(x), [-1]), k=k)


def tril(x, k=0):
    x = tensor(x)
    n, m = tf.shape(x)[-2], tf.shape(x)[-1]
    mask = tf.range(m)[None, :] - tf.range(n)[:, None] <= k
    return tf.where(mask, x, tf.zeros_like(x))


def triu(x, k=0):
    x = tensor(x)
    n, m = tf.shape(x)[-2], tf.shape(x)[-1]
    mask = tf.range(m)[None, :] - tf.range(n)[:, None] >= k
    return tf.where(mask, x, tf.zeros_like(x))


def diagonal(x, offset=0, axis1=0, axis2=1):
    x = tensor(x)
    ndim = x.shape.rank
    a, b = canonical_axis(axis1, ndim), canonical_axis(axis2, ndim)
    rest = [i for i in range(ndim) if i not in (a, b)]
    x = tf.transpose(x, [*rest, a, b])
    n, m = x.shape[-2], x.shape[-1]
    if n is not None and m is not None and (offset >= m or -offset >= n):
        return tf.zeros([*x.shape[:-2], 0], x.dtype)
    return tf.linalg.diag_part(x, k=offset)


def trace(x, offset=0, axis1=0, axis2=1):
    x = tensor(x)
    dtype = dt(x)
    if dtype in ("bool", "int8", "int16"):
        x = tf.cast(x, "int32")
    elif dtype in ("uint8", "uint16"):
        x = tf.cast(x, "uint32")
    return tf.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)
