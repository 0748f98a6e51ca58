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
    """Cholesky factor of symmetric positive-definite matrices.

    Args:
        x: symmetric positive-definite matrices, shape ``(..., n, n)``.
        upper: return the upper factor instead of the lower one.

    Returns:
        The triangular factor ``L`` with ``x = L @ L.T`` (``U`` with ``x = U.T @ U`` if `upper`).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[4.0, 2.0], [2.0, 5.0]])
    >>> ops.convert_to_numpy(ops.cholesky(x)).astype("float64").round(4).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
    >>> ops.convert_to_numpy(ops.cholesky(x, upper=True)).astype("float64").round(4).tolist()
    [[2.0, 1.0], [0.0, 2.0]]
    """


@op(_square_same, "linalg")
def cholesky_inverse(x, upper=False):
    """Inverse of a matrix from its Cholesky factor.

    Args:
        x: Cholesky factors, as ``cholesky`` returns, shape ``(..., n, n)``.
        upper: whether `x` is the upper factor.

    Returns:
        The inverse of ``L @ L.T`` (of ``U.T @ U`` if `upper`).

    Example:

    >>> from mb_ops import ops
    >>> factor = ops.convert_to_tensor([[2.0, 0.0], [1.0, 2.0]])
    >>> ops.convert_to_numpy(ops.cholesky_inverse(factor)).astype("float64").round(4).tolist()
    [[0.3125, -0.125], [-0.125, 0.25]]
    """


@op(_square_same, "linalg")
def inv(x):
    """Matrix inverse.

    Args:
        x: square matrices, shape ``(..., n, n)``.

    Returns:
        The inverse matrices, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[4.0, 7.0], [2.0, 6.0]])
    >>> ops.convert_to_numpy(ops.inv(x)).astype("float64").round(4).tolist()
    [[0.6, -0.7], [-0.2, 0.4]]
    """


def _det_spec(op_name: str, x: Any) -> Any:
    return tensor(_matrices(op_name, x)[:-2], _fdt(x))


@op(_det_spec, "linalg")
def det(x):
    """Determinant.

    Args:
        x: square matrices, shape ``(..., n, n)``.

    Returns:
        The determinants, shape ``(...)``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ops.convert_to_numpy(ops.det(x)).astype("float64").round(4).tolist()
    -2.0
    """


def _eig_spec(op_name: str, x: Any) -> Any:
    s = _matrices(op_name, x)
    return tensor(s[:-1], _fdt(x)), tensor(s, _fdt(x))


@op(_eig_spec, "linalg")
def eig(x):
    """Eigenvalues and eigenvectors of general square matrices.

    Args:
        x: square matrices, shape ``(..., n, n)``.

    Returns:
        A ``(eigenvalues, eigenvectors)`` pair, as complex tensors (a real matrix can have complex
        eigenvalues); column ``i`` of the eigenvectors belongs to eigenvalue ``i``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[2.0, 1.0], [0.0, 3.0]])
    >>> w, v = ops.eig(x)
    >>> ops.convert_to_numpy(ops.real(w)).astype("float64").round(4).tolist()
    [2.0, 3.0]
    """


@op(_eig_spec, "linalg")
def eigh(x):
    """Eigenvalues and eigenvectors of symmetric (Hermitian) matrices.

    Args:
        x: symmetric (Hermitian) matrices, shape ``(..., n, n)``.

    Returns:
        A ``(eigenvalues, eigenvectors)`` pair: the eigenvalues in ascending order, and the
        eigenvectors as columns.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[2.0, 1.0], [1.0, 2.0]])
    >>> w, v = ops.eigh(x)
    >>> ops.convert_to_numpy(w).astype("float64").round(4).tolist()
    [1.0, 3.0]
    >>> ops.convert_to_numpy(ops.absolute(v)).astype("float64").round(4).tolist()
    [[0.7071, 0.7071], [0.7071, 0.7071]]
    """


def _lu_spec(op_name: str, x: Any) -> Any:
    s = _matrices(op_name, x, square=False)
    k = None if s[-1] is None or s[-2] is None else min(s[-1], s[-2])
    return tensor(s, _fdt(x)), tensor((*s[:-2], k), "int32")


@op(_lu_spec, "linalg")
def lu_factor(x):
    """LU factorization with pivots.

    Args:
        x: matrices, shape ``(..., m, n)``.

    Returns:
        A ``(lu, pivots)`` pair: ``L`` (unit diagonal, not stored) and ``U`` packed in one matrix,
        and the row pivots.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> lu, pivots = ops.lu_factor(x)
    >>> ops.convert_to_numpy(lu).astype("float64").round(4).tolist()
    [[3.0, 4.0], [0.3333, 0.6667]]
    """


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
    """Vector or matrix norm.

    Args:
        x: a tensor.
        ord: the order: for vectors an int or ``inf``, for matrices also ``"fro"`` and ``"nuc"``;
            ``None`` is the 2-norm (Frobenius for matrices).
        axis: an int (vector norm) or a pair of ints (matrix norm); ``None`` uses the whole of a 1D
            or 2D `x`.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The norms, with the reduced axes removed (kept with size 1 if `keepdims`).

    Example:

    >>> from mb_ops import ops
    >>> v = ops.convert_to_tensor([3.0, -4.0])
    >>> ops.convert_to_numpy(ops.norm(v)).astype("float64").round(4).tolist()
    5.0
    >>> ops.convert_to_numpy(ops.norm(v, ord=1)).astype("float64").round(4).tolist()
    7.0
    >>> m = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ops.convert_to_numpy(ops.norm(m, ord="fro")).astype("float64").round(4).tolist()
    5.4772
    """


def _pinv_spec(op_name: str, x: Any, rcond: Any = None) -> Any:
    s = _matrices(op_name, x, square=False)
    return tensor((*s[:-2], s[-1], s[-2]), _fdt(x))


@op(_pinv_spec, "linalg")
def pinv(x, rcond=None):
    """Moore-Penrose pseudo-inverse.

    Args:
        x: matrices, shape ``(..., m, n)``.
        rcond: singular values below ``rcond`` times the largest count as 0.

    Returns:
        The pseudo-inverses, shape ``(..., n, m)``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0], [2.0]])
    >>> ops.convert_to_numpy(ops.pinv(x)).astype("float64").round(4).tolist()
    [[0.2, 0.4]]
    """


def _matrix_rank_spec(op_name: str, x: Any, tol: Any = None) -> Any:
    return tensor(_matrices(op_name, x, square=False)[:-2], "int32")


@op(_matrix_rank_spec, "linalg")
def matrix_rank(x, tol=None):
    """Rank of matrices.

    Args:
        x: matrices, shape ``(..., m, n)``.
        tol: singular values at or below this count as 0; ``None`` picks one from the dtype.

    Returns:
        The ranks, as int32, shape ``(...)``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0], [2.0, 4.0]])
    >>> ops.convert_to_numpy(ops.matrix_rank(x)).tolist()
    1
    >>> y = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ops.convert_to_numpy(ops.matrix_rank(y)).tolist()
    2
    """


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
    """QR decomposition.

    Args:
        x: matrices, shape ``(..., m, n)``.
        mode: ``"reduced"`` (``q`` is ``m x k``, ``k = min(m, n)``) or ``"complete"`` (``q`` is ``m
            x m``).

    Returns:
        A ``(q, r)`` pair with ``x = q @ r``: ``q`` with orthonormal columns, ``r`` upper
        triangular.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[3.0, 1.0], [4.0, 2.0]])
    >>> q, r = ops.qr(x)
    >>> ops.convert_to_numpy(ops.absolute(r)).astype("float64").round(4).tolist()
    [[5.0, 2.2], [0.0, 0.4]]
    >>> ops.convert_to_numpy(ops.matmul(q, r)).astype("float64").round(4).tolist()
    [[3.0, 1.0], [4.0, 2.0]]
    """


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
    """Singular value decomposition.

    Args:
        x: matrices, shape ``(..., m, n)``.
        full_matrices: return square ``u`` and ``vh`` (else ``m x k`` and ``k x n``).
        compute_uv: also compute ``u`` and ``vh``.

    Returns:
        A ``(u, s, vh)`` triple with ``x = u @ diag(s) @ vh``, the singular values ``s`` in
        descending order; only ``s`` if not `compute_uv`.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[3.0, 0.0], [4.0, 5.0]])
    >>> u, s, vh = ops.svd(x)
    >>> ops.convert_to_numpy(s).astype("float64").round(4).tolist()
    [6.7082, 2.2361]
    >>> ops.convert_to_numpy(ops.svd(x, compute_uv=False)).astype("float64").round(4).tolist()
    [6.7082, 2.2361]
    """


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
    """Solve ``a x = b``.

    Args:
        a: square matrices, shape ``(..., n, n)``.
        b: the right-hand side: shape ``(..., n)`` or ``(..., n, k)``.

    Returns:
        ``x`` with ``a @ x = b``, shaped like `b`.

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([[3.0, 1.0], [1.0, 2.0]])
    >>> b = ops.convert_to_tensor([9.0, 8.0])
    >>> ops.convert_to_numpy(ops.solve(a, b)).astype("float64").round(4).tolist()
    [2.0, 3.0]
    """


@op(_solve_spec, "linalg")
def solve_triangular(a, b, lower=False):
    """Solve ``a x = b`` for triangular ``a``.

    Args:
        a: triangular matrices, shape ``(..., n, n)``; the other triangle is ignored.
        b: the right-hand side: shape ``(..., n)`` or ``(..., n, k)``.
        lower: whether `a` is lower (else upper) triangular.

    Returns:
        ``x`` with ``a @ x = b``, shaped like `b`.

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([[2.0, 0.0], [1.0, 1.0]])
    >>> b = ops.convert_to_tensor([4.0, 5.0])
    >>> x = ops.solve_triangular(a, b, lower=True)
    >>> ops.convert_to_numpy(x).astype("float64").round(4).tolist()
    [2.0, 3.0]
    """


def _lstsq_spec(op_name: str, a: Any, b: Any, rcond: Any = None) -> Any:
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != 2:
        raise ValueError(f"{op_name}: a must be a matrix, received shape {fmt(sa)}.")
    out = (sa[1],) if len(sb) == 1 else (sa[1], sb[-1])
    return tensor(out, float_dtype(_dtypes.result_type(dtype_of(a), dtype_of(b))))


@op(_lstsq_spec, "linalg")
def lstsq(a, b, rcond=None):
    """Least-squares solution of ``a x = b``.

    Args:
        a: a matrix, shape ``(m, n)``.
        b: the right-hand side, shape ``(m,)`` or ``(m, k)``.
        rcond: singular values of `a` below ``rcond`` times the largest count as 0.

    Returns:
        ``x`` minimizing ``|a @ x - b|``, shape ``(n,)`` or ``(n, k)``.

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> b = ops.convert_to_tensor([1.0, 2.0, 4.0])
    >>> ops.convert_to_numpy(ops.lstsq(a, b)).astype("float64").round(4).tolist()
    [1.3333, 2.3333]
    """


def _jvp_spec(op_name, fun, primals, tangents, has_aux=False) -> Any:
    out = fun(*primals)
    if has_aux:
        out, aux = out
        return _spec_of(out), _spec_of(out), _spec_of(aux)
    return _spec_of(out), _spec_of(out)


@op(_jvp_spec, "linalg")
def jvp(fun, primals, tangents, has_aux=False):
    """Jacobian-vector product of ``fun`` at ``primals`` along ``tangents``.

    It needs a backend that computes derivatives (jax, torch or tensorflow; not numpy):
    where the active backend cannot, the doctests run the example below on jax.

    Args:
        fun: a function of tensors, returning a tensor (or a pytree of them).
        primals: a tuple or list of the inputs at which `fun` is differentiated.
        tangents: the directions, one per primal, of the same shapes.
        has_aux: whether `fun` returns an ``(output, aux)`` pair whose ``aux`` is not
            differentiated.

    Returns:
        An ``(output, tangent_output)`` pair: ``fun(*primals)`` and its derivative along
        `tangents`; with `has_aux`, an ``(output, tangent_output, aux)`` triple.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 3.0])
    >>> tangent = ops.convert_to_tensor([1.0, 1.0])
    >>> y, dy = ops.jvp(lambda x: x * x, (x,), (tangent,))
    >>> ops.convert_to_numpy(dy).tolist()
    [2.0, 6.0]
    """
