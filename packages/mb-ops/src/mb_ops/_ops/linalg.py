"""Linear-algebra ops (``keras.ops.linalg``)."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    canonical_axes,
    dtype_of,
    float_dtype,
    fmt,
    reduce_shape,
    shape_of,
    std_dtype,
    tensor,
)
from mb_ops._ops.core import _spec_of


def _matrices(op_name: str, x: Any, square: bool = True) -> tuple[Any, ...]:
    s = shape_of(x)
    if len(s) < 2:
        raise ValueError(
            f"{op_name}: expected a matrix or a batch of matrices (rank >= 2), received shape "
            f"{fmt(s)}."
        )
    if square and s[-1] is not None and s[-2] is not None and s[-1] != s[-2]:
        raise ValueError(
            f"{op_name}: expected square matrices, received shape {fmt(s)} (last two axes "
            f"{s[-2]} and {s[-1]})."
        )
    return s


def _fdt(x: Any) -> str:
    return float_dtype(std_dtype(x))


def _square_same(op_name: str, x: Any, *_: Any) -> Any:
    return tensor(_matrices(op_name, x), _fdt(x))


@op(_square_same, "linalg")
def cholesky(x, upper=False):
    """Cholesky factor of symmetric positive-definite matrices."""


@op(_square_same, "linalg")
def cholesky_inverse(x, upper=False):
    """Inverse of a matrix from its Cholesky factor."""


@op(_square_same, "linalg")
def inv(x):
    """Matrix inverse."""


def _det_spec(op_name: str, x: Any) -> Any:
    return tensor(_matrices(op_name, x)[:-2], _fdt(x))


@op(_det_spec, "linalg")
def det(x):
    """Determinant."""


def _eig_spec(op_name: str, x: Any) -> Any:
    s = _matrices(op_name, x)
    return tensor(s[:-1], _fdt(x)), tensor(s, _fdt(x))


@op(_eig_spec, "linalg")
def eig(x):
    """Eigenvalues and eigenvectors of general square matrices."""


@op(_eig_spec, "linalg")
def eigh(x):
    """Eigenvalues and eigenvectors of symmetric (Hermitian) matrices."""


def _lu_spec(op_name: str, x: Any) -> Any:
    s = _matrices(op_name, x, square=False)
    k = None if s[-1] is None or s[-2] is None else min(s[-1], s[-2])
    return tensor(s, _fdt(x)), tensor((*s[:-2], k), "int32")


@op(_lu_spec, "linalg")
def lu_factor(x):
    """LU factorization with pivots."""


def _norm_spec(op_name: str, x: Any, ord: Any = None, axis: Any = None, keepdims=False) -> Any:
    s = shape_of(x)
    dtype = _fdt(x)
    if dtype in ("complex64", "complex128"):
        dtype = "float32" if dtype == "complex64" else "float64"
    if axis is None:
        axes = None
    else:
        axes = canonical_axes(op_name, axis, len(s), s)
        if len(axes) > 2:
            raise ValueError(f"{op_name}: axis must name 1 or 2 axes, received {axis!r}.")
    return tensor(reduce_shape(op_name, s, axes, keepdims), dtype)


@op(_norm_spec, "linalg")
def norm(x, ord=None, axis=None, keepdims=False):
    """Vector or matrix norm."""


def _pinv_spec(op_name: str, x: Any, rcond: Any = None) -> Any:
    s = _matrices(op_name, x, square=False)
    return tensor((*s[:-2], s[-1], s[-2]), _fdt(x))


@op(_pinv_spec, "linalg")
def pinv(x, rcond=None):
    """Moore-Penrose pseudo-inverse."""


def _matrix_rank_spec(op_name: str, x: Any, tol: Any = None) -> Any:
    return tensor(_matrices(op_name, x, square=False)[:-2], "int32")


@op(_matrix_rank_spec, "linalg")
def matrix_rank(x, tol=None):
    """Rank of matrices."""


def _qr_spec(op_name: str, x: Any, mode: str = "reduced") -> Any:
    s = _matrices(op_name, x, square=False)
    if mode not in ("reduced", "complete"):
        raise ValueError(f"{op_name}: mode must be 'reduced' or 'complete', received {mode!r}.")
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    batch = s[:-2]
    if mode == "reduced":
        return tensor((*batch, m, k), _fdt(x)), tensor((*batch, k, n), _fdt(x))
    return tensor((*batch, m, m), _fdt(x)), tensor((*batch, m, n), _fdt(x))


@op(_qr_spec, "linalg")
def qr(x, mode="reduced"):
    """QR decomposition."""


def _svd_spec(op_name: str, x: Any, full_matrices=True, compute_uv=True) -> Any:
    s = _matrices(op_name, x, square=False)
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    batch = s[:-2]
    sv = tensor((*batch, k), _fdt(x))
    if not compute_uv:
        return sv
    if full_matrices:
        return tensor((*batch, m, m), _fdt(x)), sv, tensor((*batch, n, n), _fdt(x))
    return tensor((*batch, m, k), _fdt(x)), sv, tensor((*batch, k, n), _fdt(x))


@op(_svd_spec, "linalg")
def svd(x, full_matrices=True, compute_uv=True):
    """Singular value decomposition."""


def _solve_spec(op_name: str, a: Any, b: Any, *_: Any) -> Any:
    sa = _matrices(op_name, a)
    sb = shape_of(b)
    if len(sb) < 1:
        raise ValueError(f"{op_name}: b must have rank >= 1, received {fmt(sb)}.")
    rows = sb[-2] if len(sb) >= 2 and len(sb) == len(sa) else sb[-1] if len(sb) < len(sa) else None
    if rows is not None and sa[-1] is not None and rows != sa[-1]:
        raise ValueError(
            f"{op_name}: a of shape {fmt(sa)} and b of shape {fmt(sb)} do not match: b needs "
            f"{sa[-1]} rows."
        )
    dtype = float_dtype(_dtypes.result_type(dtype_of(a), dtype_of(b)))
    return tensor(sb, dtype)


@op(_solve_spec, "linalg")
def solve(a, b):
    """Solve ``a x = b``."""


@op(_solve_spec, "linalg")
def solve_triangular(a, b, lower=False):
    """Solve ``a x = b`` for triangular ``a``."""


def _lstsq_spec(op_name: str, a: Any, b: Any, rcond: Any = None) -> Any:
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != 2:
        raise ValueError(f"{op_name}: a must be a matrix, received shape {fmt(sa)}.")
    out = (sa[1],) if len(sb) == 1 else (sa[1], sb[-1])
    return tensor(out, float_dtype(_dtypes.result_type(dtype_of(a), dtype_of(b))))


@op(_lstsq_spec, "linalg")
def lstsq(a, b, rcond=None):
    """Least-squares solution of ``a x = b``."""


def _jvp_spec(op_name, fun, primals, tangents, has_aux=False) -> Any:
    out = fun(*primals)
    if has_aux:
        out, aux = out
        return _spec_of(out), _spec_of(out), _spec_of(aux)
    return _spec_of(out), _spec_of(out)


@op(_jvp_spec, "linalg")
def jvp(fun, primals, tangents, has_aux=False):
    """Jacobian-vector product of ``fun`` at ``primals`` along ``tangents``."""
