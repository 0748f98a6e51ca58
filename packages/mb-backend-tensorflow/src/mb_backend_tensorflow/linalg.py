"""Linear algebra of the TensorFlow backend (``keras.ops.linalg``) and ``jvp``."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx, result_type, standardize_dtype

UNSUPPORTED = {}


def _float(x):
    x = convert_to_tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, floatx() if standardize_dtype(x.dtype) != "int64" else "float64")
    return x


def cholesky(x, upper=False):
    out = tf.debugging.check_numerics(
        tf.linalg.cholesky(_float(x)),
        "cholesky: the matrix is not symmetric positive definite",
    )
    return tf.linalg.adjoint(out) if upper else out


def cholesky_inverse(x, upper=False):
    x = _float(x)
    eye = tf.eye(tf.shape(x)[-1], batch_shape=tf.shape(x)[:-2], dtype=x.dtype)
    inv_factor = tf.linalg.triangular_solve(x, eye, lower=not upper)
    if upper:
        return tf.linalg.matmul(inv_factor, inv_factor, adjoint_b=True)
    return tf.linalg.matmul(inv_factor, inv_factor, adjoint_a=True)


def det(x):
    return tf.linalg.det(_float(x))


def eig(x):
    return tf.linalg.eig(_float(x))


def eigh(x):
    return tf.linalg.eigh(_float(x))


def inv(x):
    return tf.linalg.inv(_float(x))


def lu_factor(x):
    lu, perm = tf.linalg.lu(_float(x))
    return lu, tf.math.invert_permutation(perm)


def norm(x, ord=None, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    ndim = x.shape.rank
    axes = (
        tuple(range(ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    )
    if any(not -ndim <= a < ndim for a in axes):
        raise ValueError(f"norm: axis {axis} is out of range for a tensor of rank {ndim}.")
    axes = tuple(a % ndim for a in axes)
    dtype = floatx() if standardize_dtype(x.dtype) == "int64" else result_type(x.dtype.name, float)
    x = tf.cast(x, dtype)
    if axis is None and ord is None:
        return tf.sqrt(
            tf.reduce_sum(tf.math.real(x * tf.math.conj(x)), axis=axes, keepdims=keepdims)
        )
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise ValueError(f"norm takes one or two axes. Received axis={axis}.")


def _vector_norm(x, ord, axis, keepdims):
    absx = tf.abs(x)
    if ord is None or ord == 2:
        return tf.sqrt(tf.reduce_sum(tf.square(absx), axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return tf.reduce_max(absx, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return tf.reduce_min(absx, axis=axis, keepdims=keepdims)
    if ord == 0:
        return tf.reduce_sum(tf.cast(absx != 0, absx.dtype), axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"norm: ord={ord!r} is not a vector norm. Use a number or inf.")
    p = tf.cast(ord, absx.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(absx, p), axis=axis, keepdims=keepdims), 1.0 / p)


def _matrix_norm(x, ord, axes, keepdims):
    row, col = axes
    absx = tf.abs(x)
    if ord is None or ord == "fro":
        out = tf.sqrt(tf.reduce_sum(tf.square(absx), axis=axes, keepdims=True))
    elif ord in (1, -1):
        sums = tf.reduce_sum(absx, axis=row, keepdims=True)
        out = (tf.reduce_max if ord == 1 else tf.reduce_min)(sums, axis=col, keepdims=True)
    elif ord in (np.inf, -np.inf):
        sums = tf.reduce_sum(absx, axis=col, keepdims=True)
        out = (tf.reduce_max if ord == np.inf else tf.reduce_min)(sums, axis=row, keepdims=True)
    elif ord in ("nuc", 2, -2):
        moved = tf.experimental.numpy.moveaxis(x, axes, (-2, -1))
        s = tf.linalg.svd(moved, compute_uv=False)
        reduce = {"nuc": tf.reduce_sum, 2: tf.reduce_max, -2: tf.reduce_min}[ord]
        out = reduce(s, axis=-1)
        for a in sorted(axes):
            out = tf.expand_dims(out, a)
    else:
        raise ValueError(f"norm: ord={ord!r} is not a matrix norm.")
    return out if keepdims else tf.squeeze(out, axes)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr got mode={mode!r}. Expected 'reduced' or 'complete'.")
    return tf.linalg.qr(_float(x), full_matrices=mode == "complete")


def _as_matrix_rhs(a, b):
    return b.shape.rank == a.shape.rank - 1


def solve(a, b):
    a, b = _float(a), _float(b)
    b = tf.cast(b, a.dtype)
    if _as_matrix_rhs(a, b):
        return tf.squeeze(tf.linalg.solve(a, b[..., None]), -1)
    return tf.linalg.solve(a, b)


def solve_triangular(a, b, lower=False):
    a, b = _float(a), _float(b)
    b = tf.cast(b, a.dtype)
    if _as_matrix_rhs(a, b):
        return tf.squeeze(tf.linalg.triangular_solve(a, b[..., None], lower=lower), -1)
    return tf.linalg.triangular_solve(a, b, lower=lower)


def svd(x, full_matrices=True, compute_uv=True):
    x = _float(x)
    if not compute_uv:
        return tf.linalg.svd(x, full_matrices=full_matrices, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices, compute_uv=True)
    return u, s, tf.linalg.adjoint(v)


def lstsq(a, b, rcond=None):
    a, b = _float(a), _float(b)
    b = tf.cast(b, a.dtype)
    if a.shape.rank != 2:
        raise TypeError(f"lstsq needs a 2-D matrix a. Received shape {a.shape.as_list()}.")
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"lstsq needs a and b with the same number of rows. Received {a.shape[0]} and "
            f"{b.shape[0]}."
        )
    vector = b.shape.rank == 1
    if vector:
        b = b[:, None]
    m, n = a.shape
    eps = np.finfo(a.dtype.as_numpy_dtype).eps
    rcond = eps * max(m, n) if rcond is None else rcond
    u, s, vt = svd(a, full_matrices=False)
    keep = s >= tf.cast(rcond, s.dtype) * s[0]
    s_inv = tf.where(keep, 1.0 / tf.where(keep, s, tf.ones_like(s)), tf.zeros_like(s))
    x = tf.linalg.matmul(
        vt, s_inv[:, None] * tf.linalg.matmul(u, b, adjoint_a=True), adjoint_a=True
    )
    return tf.reshape(x, [-1]) if vector else x


def matrix_rank(x, tol=None):
    return tf.linalg.matrix_rank(_float(x), tol=tol)


def pinv(x, rcond=None):
    return tf.linalg.pinv(_float(x), rcond=rcond)


def jvp(fun, primals, tangents, has_aux=False):
    """Forward-mode derivative: ``(fun(*primals), J @ tangents)`` (``jax.jvp``)."""
    primal_flat = [convert_to_tensor(p) for p in tf.nest.flatten(primals)]
    tangent_flat = [
        tf.cast(convert_to_tensor(t), p.dtype)
        for t, p in zip(tf.nest.flatten(tangents), primal_flat, strict=True)
    ]
    primals = tf.nest.pack_sequence_as(primals, primal_flat)
    with tf.autodiff.ForwardAccumulator(primal_flat, tangent_flat) as acc:
        out = fun(*primals)
        if has_aux:
            out, aux = out
        out_flat = tf.nest.flatten(out)
        tangents_out = tf.nest.pack_sequence_as(
            out, [acc.jvp(o, unconnected_gradients="zero") for o in out_flat]
        )
    if has_aux:
        return out, tangents_out, aux
    return out, tangents_out
