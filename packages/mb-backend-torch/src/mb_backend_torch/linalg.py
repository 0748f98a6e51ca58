"""Linear algebra on torch (``torch.linalg``); names as Keras 3's torch backend."""

import warnings

import torch

from mb_backend_torch.numpy._common import t, to_float

# Every linalg op is supported on torch.
UNSUPPORTED = {}


def cholesky(x, upper=False):
    x = to_float(x)
    out, info = torch.linalg.cholesky_ex(x, upper=upper)
    if bool((info != 0).any()):
        raise ValueError("cholesky: the input is not symmetric positive definite.")
    return out


def cholesky_inverse(x, upper=False):
    return torch.cholesky_inverse(to_float(x), upper=upper)


def det(x):
    return torch.linalg.det(to_float(x))


def eig(x):
    return torch.linalg.eig(to_float(x))


def eigh(x):
    return torch.linalg.eigh(to_float(x))


def inv(x):
    return torch.linalg.inv(to_float(x))


def lu_factor(x):
    lu, pivots = torch.linalg.lu_factor(to_float(x))
    # Keras returns 0-based pivots, as JAX/SciPy do.
    return lu, (pivots - 1).to(torch.int32)


def norm(x, ord=None, axis=None, keepdims=False):
    x = to_float(x)
    if isinstance(axis, list):
        axis = tuple(axis)
    if isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise ValueError(f"norm: ord must be a number, 'fro' or 'nuc'. Received {ord!r}.")
    if axis is None and ord is not None:
        axis = tuple(range(x.ndim)) if x.ndim <= 2 else None
    if isinstance(axis, tuple) and len(axis) == 2:
        return torch.linalg.matrix_norm(
            x, ord="fro" if ord is None else ord, dim=axis, keepdim=keepdims
        )
    if axis is None:
        return torch.linalg.vector_norm(x.reshape(-1), ord=2 if ord is None else ord).reshape(
            (1,) * x.ndim if keepdims else ()
        )
    return torch.linalg.vector_norm(x, ord=2 if ord is None else ord, dim=axis, keepdim=keepdims)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete'. Received {mode!r}.")
    return torch.linalg.qr(to_float(x), mode=mode)


def solve(a, b):
    a = to_float(a)
    return torch.linalg.solve(a, t(b).to(a.dtype))


def solve_triangular(a, b, lower=False):
    a = to_float(a)
    b = t(b).to(a.dtype)
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b.unsqueeze(-1)
    out = torch.linalg.solve_triangular(a, b, upper=not lower)
    return out.squeeze(-1) if vector else out


def svd(x, full_matrices=True, compute_uv=True):
    x = to_float(x)
    if not compute_uv:
        return torch.linalg.svdvals(x)
    return torch.linalg.svd(x, full_matrices=full_matrices)


def lstsq(a, b, rcond=None):
    a = to_float(a)
    b = t(b).to(a.dtype)
    vector = b.ndim == 1
    if vector:
        b = b.unsqueeze(-1)
    # gelsd works for any shape on the CPU; gels (the only CUDA driver) needs full rank.
    driver = "gelsd" if a.device.type == "cpu" else None
    out = torch.linalg.lstsq(a, b, rcond=rcond, driver=driver).solution
    return out.squeeze(-1) if vector else out


def matrix_rank(x, tol=None):
    x = to_float(x)
    return torch.linalg.matrix_rank(x, atol=tol).to(torch.int32)


def matrix_power(x, n):
    return torch.linalg.matrix_power(t(x), n)


def pinv(x, rcond=None):
    return torch.linalg.pinv(to_float(x), rtol=1e-15 if rcond is None else rcond)


def jvp(fun, primals, tangents, has_aux=False):
    primals = tuple(t(p) for p in primals)
    tangents = tuple(t(v).to(p.dtype) for v, p in zip(tangents, primals, strict=True))
    with warnings.catch_warnings():
        # torch's first forward-mode call loads decompositions through the
        # deprecated torch.jit.script and says so; that is torch's internal noise.
        warnings.filterwarnings("ignore", message=".*torch.jit.script.*", category=FutureWarning)
        return torch.func.jvp(fun, primals, tangents, has_aux=has_aux)
