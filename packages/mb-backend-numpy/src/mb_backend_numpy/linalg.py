"""The ``keras.ops.linalg`` functions on NumPy and SciPy (batched over leading axes)."""

import numpy as np
import scipy.linalg

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.numpy._common import cast

UNSUPPORTED = {
    "jvp": "the numpy backend computes no derivatives (inference only); "
    "use jax, torch or tensorflow",
}


def _float(x):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if dtype in ("float16", "bfloat16"):
        return x.astype("float32"), dtype
    if "int" in dtype or dtype == "bool":
        out = result_type(dtype, "float32")
        return x.astype(out), out
    return x, dtype


def cholesky(x, upper=False):
    x, dtype = _float(x)
    lower = np.linalg.cholesky(x)
    if np.isnan(lower).any():
        raise ValueError("cholesky expects a symmetric positive-definite matrix.")
    return cast(np.swapaxes(lower, -1, -2).conj() if upper else lower, dtype)


def cholesky_inverse(x, upper=False):
    factor, dtype = _float(x)
    eye = np.broadcast_to(np.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
    inv_factor = solve_triangular(factor, eye, lower=not upper)
    if upper:
        out = inv_factor @ np.swapaxes(inv_factor, -1, -2)
    else:
        out = np.swapaxes(inv_factor, -1, -2) @ inv_factor
    return cast(out, dtype)


def det(x):
    x, dtype = _float(x)
    return cast(np.linalg.det(x), dtype)


def eig(x):
    x, _ = _float(x)
    return np.linalg.eig(x)


def eigh(x):
    x, dtype = _float(x)
    w, v = np.linalg.eigh(x)
    return cast(w, dtype), cast(v, dtype)


def inv(x):
    x, dtype = _float(x)
    return cast(np.linalg.inv(x), dtype)


def lu_factor(x):
    x, dtype = _float(x)
    if x.ndim == 2:
        lu, piv = scipy.linalg.lu_factor(x)
        return cast(lu, dtype), piv.astype("int32")
    m, n = x.shape[-2:]
    flat = x.reshape(-1, m, n)
    results = [scipy.linalg.lu_factor(matrix) for matrix in flat]
    lu = np.stack([r[0] for r in results]).reshape(x.shape)
    piv = np.stack([r[1] for r in results]).reshape(*x.shape[:-2], min(m, n))
    return cast(lu, dtype), piv.astype("int32")


def norm(x, ord=None, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        dtype = result_type(dtype, "float32")
    axis = tuple(axis) if isinstance(axis, list) else axis
    compute = "float32" if dtype in ("float16", "bfloat16") else dtype
    return cast(np.linalg.norm(cast(x, compute), ord=ord, axis=axis, keepdims=keepdims), dtype)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr mode must be 'reduced' or 'complete'. Received: mode={mode!r}.")
    x, dtype = _float(x)
    q, r = np.linalg.qr(x, mode=mode)
    return cast(q, dtype), cast(r, dtype)


def solve(a, b):
    a, dtype = _float(a)
    b = to_tensor(b).astype(a.dtype)
    if b.ndim == a.ndim - 1:
        return cast(np.linalg.solve(a, b[..., None])[..., 0], dtype)
    return cast(np.linalg.solve(a, b), dtype)


def solve_triangular(a, b, lower=False):
    a, dtype = _float(a)
    b = to_tensor(b).astype(a.dtype)
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b[..., None]
    if a.ndim == 2:
        out = scipy.linalg.solve_triangular(a, b, lower=lower)
    else:
        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a_flat = np.broadcast_to(a, (*shape, *a.shape[-2:])).reshape(-1, *a.shape[-2:])
        b_flat = np.broadcast_to(b, (*shape, *b.shape[-2:])).reshape(-1, *b.shape[-2:])
        pairs = zip(a_flat, b_flat, strict=True)
        solved = [scipy.linalg.solve_triangular(m, r, lower=lower) for m, r in pairs]
        out = np.stack(solved).reshape(*shape, *b.shape[-2:])
    return cast(out[..., 0] if vector else out, dtype)


def svd(x, full_matrices=True, compute_uv=True):
    x, dtype = _float(x)
    out = np.linalg.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)
    if not compute_uv:
        return cast(out, dtype)
    return tuple(cast(part, dtype) for part in out)


def lstsq(a, b, rcond=None):
    a, dtype = _float(a)
    b = to_tensor(b).astype(a.dtype)
    return cast(np.linalg.lstsq(a, b, rcond=rcond)[0], dtype)


def matrix_rank(x, tol=None):
    x = to_tensor(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_rank expects an input of rank 2 or more. Received: {x.shape}.")
    return cast(np.linalg.matrix_rank(x, tol=tol), "int32")


def pinv(x, rcond=None):
    x, dtype = _float(x)
    if rcond is None:
        return cast(np.linalg.pinv(x), dtype)
    return cast(np.linalg.pinv(x, rcond=rcond), dtype)


def jvp(fun, primals, tangents, has_aux=False):
    raise NotImplementedError(
        "jvp is not supported on the numpy backend: it computes no derivatives "
        "(inference only). Use the jax, torch or tensorflow backend."
    )
