"""The ``keras.ops.linalg`` functions on OpenVINO, batched over leading axes.

OpenVINO has no decomposition ops, so each factorization is written as a fixed
sequence of OpenVINO nodes for the matrix size at hand (compiled once per shape):
LU with partial pivoting (det, inv, solve, lu_factor), Cholesky column by column,
triangular substitution, Householder QR, and cyclic Jacobi rotations for the
symmetric eigenproblem (eigh), and one-sided Jacobi on the matrix itself for svd,
pinv, matrix_rank and lstsq (never through ``AᵀA``, which squares the condition
number). These unrolled graphs grow with n²; they suit the small
and medium matrices models use (up to a few dozen rows), not large solvers.
"""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    abs_node,
    canonical_axes,
    const_like,
    cv,
    i64,
    opset,
    rank,
    run,
    static_shape,
)

UNSUPPORTED = {
    "jvp": "OpenVINO computes no derivatives (the backend is inference-only); "
    "use jax, torch or tensorflow",
    "eig": "the eigenvalues of a general matrix are complex and OpenVINO has no complex "
    "element type; use eigh for symmetric matrices",
}

_SWEEPS = 10
"""Cyclic Jacobi sweeps: convergence is quadratic, 10 reach float32/float64 accuracy."""


def _float(x):
    x = to_tensor(x)
    dtype = x.dtype
    if dtype in ("float16", "bfloat16"):
        return x, dtype, "float32"
    if "int" in dtype or dtype == "bool":
        out = _dtypes.result_type(dtype, "float32")
        return x, out, out
    return x, dtype, dtype


def _eye(n, like):
    return cv(
        opset.eye(i64(n), i64(n), i64(0), "f32").output(0),
        _dtypes.name_of_ov(like.get_element_type()),
    )


def _col(a, k):
    """``a[..., :, k]`` (a column) as (..., n)."""
    return opset.gather(a, i64(k), i64(-1)).output(0)


def _row(a, k):
    return opset.gather(a, i64(k), i64(-2)).output(0)


def _mask(values):
    return opset.constant(np.asarray(values, dtype=bool)).output(0)


def _outer(u, v):
    return opset.multiply(opset.unsqueeze(u, i64([-1])), opset.unsqueeze(v, i64([-2]))).output(0)


def _lu(a, n):
    """Doolittle LU with partial pivoting: (packed LU, pivots (..., n), permutation sign)."""
    rows = np.arange(n)
    iota = opset.constant(rows.astype(np.int32)).output(0)
    zero = const_like(0, a)
    pivots, sign = [], None
    for k in range(n):
        col = _col(a, k)
        below = _mask(rows >= k)
        magnitude = opset.select(below, abs_node(col), const_like(-1, a))
        p = opset.topk(magnitude, opset.constant(np.int64(1)), -1, "max", "none", "i32").output(1)
        pivots.append(p)
        # Swap rows k and p.
        swap = opset.select(
            opset.equal(iota, opset.constant(np.int32(k))),
            p,
            opset.select(opset.equal(iota, p), opset.constant(np.int32(k)), iota),
        )
        index = opset.broadcast(opset.unsqueeze(swap, i64([-1])), opset.shape_of(a, "i64"))
        a = opset.gather_elements(a, index, rank(a) - 2).output(0)
        flip = opset.select(
            opset.equal(p, opset.constant(np.int32(k))), const_like(1, a), const_like(-1, a)
        )
        sign = flip if sign is None else opset.multiply(sign, flip)
        pivot = opset.gather(_col(a, k), i64([k]), i64(-1))
        safe = opset.select(opset.equal(pivot, zero), const_like(1, a), pivot)
        factors = opset.select(_mask(rows > k), opset.divide(_col(a, k), safe), zero)
        row = opset.select(_mask(rows > k), _row(a, k), zero)
        a = opset.subtract(a, _outer(factors.output(0), row.output(0)))
        column_k = _mask(np.broadcast_to(rows[None, :] == k, (n, n)) & (rows[:, None] > k))
        a = opset.select(column_k, opset.unsqueeze(factors, i64([-1])), a).output(0)
    pivots = opset.concat(pivots, -1).output(0)
    return a, pivots, opset.squeeze(sign, i64([-1])).output(0)


def _diag(a, n):
    mask = opset.eye(i64(n), i64(n), i64(0), "boolean")
    return opset.reduce_sum(opset.select(mask, a, const_like(0, a)), i64([-1]), False).output(0)


def _square(name, x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name} expects square matrices (..., n, n). Received: shape {x.shape}.")
    return x.shape[-1]


def det(x):
    x, dtype, work = _float(x)
    n = _square("det", x)

    def build(m):
        lu, _, sign = _lu(cv(m, work), n)
        return cv(
            opset.multiply(sign, opset.reduce_prod(_diag(lu, n), i64([-1]), False)).output(0), dtype
        )

    return run(("det", n, dtype), build, x)


def slogdet_parts(x):
    """``(sign, log|det|)`` of square matrices."""
    a, dtype, work = _float(x)
    n = _square("slogdet", a)

    def build(m):
        lu, _, sign = _lu(cv(m, work), n)
        diag = _diag(lu, n)
        sign = opset.multiply(sign, opset.reduce_prod(opset.sign(diag), i64([-1]), False))
        logabs = opset.reduce_sum(opset.log(abs_node(diag)), i64([-1]), False)
        return [cv(sign.output(0), dtype), cv(logabs.output(0), dtype)]

    return run(("slogdet", n, dtype), build, a)


def _forward(lu, b, n, unit):
    """Solve L y = b for lower-triangular L (unit diagonal when ``unit``); b: (..., n, m)."""
    rows = np.arange(n)
    for k in range(n):
        if not unit:
            pivot = opset.unsqueeze(opset.gather(_col(lu, k), i64([k]), i64(-1)), i64([-1]))
            scaled = opset.divide(opset.gather(b, i64([k]), i64(-2)), pivot)
            b = opset.concat(_replace_row(b, k, n, scaled), -2).output(0)
        yk = _row(b, k)
        factors = opset.select(_mask(rows > k), _col(lu, k), const_like(0, lu))
        b = opset.subtract(b, _outer(factors.output(0), yk)).output(0)
    return b


def _backward(lu, b, n):
    """Solve U x = b for upper-triangular U; b: (..., n, m)."""
    rows = np.arange(n)
    for k in reversed(range(n)):
        pivot = opset.unsqueeze(opset.gather(_col(lu, k), i64([k]), i64(-1)), i64([-1]))
        xk = opset.divide(opset.gather(b, i64([k]), i64(-2)), pivot)
        b = opset.concat(_replace_row(b, k, n, xk), -2).output(0)
        factors = opset.select(_mask(rows < k), _col(lu, k), const_like(0, lu))
        b = opset.subtract(
            b, _outer(factors.output(0), opset.squeeze(xk, i64([-2])).output(0))
        ).output(0)
    return b


def _replace_row(b, k, n, row):
    parts = []
    if k > 0:
        parts.append(opset.slice(b, i64([0]), i64([k]), i64([1]), i64([-2])))
    parts.append(row)
    if k < n - 1:
        parts.append(opset.slice(b, i64([k + 1]), i64([n]), i64([1]), i64([-2])))
    return parts


def _permute_rows(b, pivots, n):
    """Apply the row swaps of ``pivots`` (LAPACK order) to ``b``."""
    iota = opset.constant(np.arange(n, dtype=np.int32)).output(0)
    for k in range(n):
        p = opset.gather(pivots, i64([k]), i64(-1))
        swap = opset.select(
            opset.equal(iota, opset.constant(np.int32(k))),
            p,
            opset.select(opset.equal(iota, p), opset.constant(np.int32(k)), iota),
        )
        index = opset.broadcast(opset.unsqueeze(swap, i64([-1])), opset.shape_of(b, "i64"))
        b = opset.gather_elements(b, index, rank(b) - 2).output(0)
    return b


def _solve_nodes(a, b, n):
    lu, pivots, _ = _lu(a, n)
    b = opset.add(
        b, opset.multiply(opset.reduce_sum(a, i64([-1, -2]), True), const_like(0, a))
    ).output(0)
    b = _permute_rows(b, pivots, n)
    return _backward(lu, _forward(lu, b, n, True), n)


def _solve_system(name, a, b, solve_nodes, key=(), static=False):
    """``solve_nodes(m, r, n)`` for the square float matrix ``a`` and ``b`` (matrices, or
    one vector per matrix, solved as a column), in ``a``'s float dtype."""
    a, dtype, work = _float(a)
    b = to_tensor(b)
    n = _square(name, a)
    vector = b.ndim == a.ndim - 1

    def build(m, r):
        m, r = cv(m, work), cv(r, work)
        if vector:
            r = opset.unsqueeze(r, i64([-1])).output(0)
        out = solve_nodes(m, r, n)
        if vector:
            out = opset.squeeze(out, i64([-1])).output(0)
        return cv(out, dtype)

    return run((name, n, *key, vector, dtype), build, a, b, static=static)


def solve(a, b):
    return _solve_system("solve", a, b, _solve_nodes, static=True)


def inv(x):
    x, dtype, work = _float(x)
    n = _square("inv", x)

    def build(m):
        m = cv(m, work)
        return cv(_solve_nodes(m, _eye(n, m), n), dtype)

    return run(("inv", n, dtype), build, x, static=True)


def lu_factor(x):
    x, dtype, work = _float(x)
    n = _square("lu_factor", x)

    def build(m):
        lu, pivots, _ = _lu(cv(m, work), n)
        return [cv(lu, dtype), cv(pivots, "int32")]

    return run(("lu_factor", n, dtype), build, x)


def _cholesky_node(a, n):
    rows = np.arange(n)
    low = opset.multiply(a, const_like(0, a)).output(0)
    for j in range(n):
        # s = A[:, j] - L @ L[j, :]
        lj = _row(low, j)
        s = opset.subtract(
            _col(a, j),
            opset.squeeze(
                opset.matmul(low, opset.unsqueeze(lj, i64([-1])), False, False), i64([-1])
            ),
        )
        d = opset.sqrt(opset.gather(s, i64([j]), i64(-1)))
        column = opset.select(_mask(rows >= j), opset.divide(s, d), const_like(0, a))
        mask = _mask(np.broadcast_to(rows[None, :] == j, (n, n)))
        low = opset.select(mask, opset.unsqueeze(column, i64([-1])), low).output(0)
    return low


def _transpose_last(node):
    nd = rank(node)
    return opset.transpose(node, i64([*list(range(nd - 2)), nd - 1, nd - 2])).output(0)


def cholesky(x, upper=False):
    x, dtype, work = _float(x)
    n = _square("cholesky", x)

    def build(m):
        low = _cholesky_node(cv(m, work), n)
        return cv(_transpose_last(low) if upper else low, dtype)

    return run(("cholesky", n, bool(upper), dtype), build, x)


def _triangular(a, b, n, lower):
    if lower:
        return _forward(a, b, n, False)
    return _backward(a, b, n)


def solve_triangular(a, b, lower=False):
    def solve_nodes(m, r, n):
        r = opset.add(
            r, opset.multiply(opset.reduce_sum(m, i64([-1, -2]), True), const_like(0, m))
        ).output(0)
        return _triangular(m, r, n, bool(lower))

    return _solve_system("solve_triangular", a, b, solve_nodes, key=(bool(lower),))


def cholesky_inverse(x, upper=False):
    factor, dtype, work = _float(x)
    n = _square("cholesky_inverse", factor)

    def build(m):
        m = cv(m, work)
        inv_factor = _triangular(m, _eye(n, m), n, not upper)
        if upper:
            out = opset.matmul(inv_factor, inv_factor, False, True)
        else:
            out = opset.matmul(inv_factor, inv_factor, True, False)
        return cv(out.output(0), dtype)

    return run(("cholesky_inverse", n, bool(upper), dtype), build, factor)


# ----- orthogonal factorizations -------------------------------------------------------


def _householder_qr(a, m, n):
    """Q (..., m, m) and R (..., m, n) by Householder reflections (LAPACK's signs)."""
    rows = np.arange(m)
    q = opset.add(
        _eye(m, a), opset.multiply(opset.reduce_sum(a, i64([-1, -2]), True), const_like(0, a))
    ).output(0)
    r = a
    zero = const_like(0, a)
    for k in range(min(m - 1, n)):
        x = opset.select(_mask(rows >= k), _col(r, k), zero)
        norm = opset.sqrt(opset.reduce_sum(opset.multiply(x, x), i64([-1]), True))
        x0 = opset.gather(x, i64([k]), i64(-1))
        sign = opset.select(opset.less(x0, zero), const_like(-1, a), const_like(1, a))
        e = _mask(rows == k)
        v = opset.add(x, opset.select(e, opset.multiply(sign, norm), zero))
        vnorm = opset.sqrt(opset.reduce_sum(opset.multiply(v, v), i64([-1]), True))
        safe = opset.select(opset.equal(vnorm, zero), const_like(1, a), vnorm)
        v = opset.divide(v, safe).output(0)
        two = const_like(2, a)
        # R <- (I - 2vvᵀ) R ;  Q <- Q (I - 2vvᵀ)
        vr = opset.squeeze(opset.matmul(opset.unsqueeze(v, i64([-2])), r, False, False), i64([-2]))
        r = opset.subtract(r, opset.multiply(two, _outer(v, vr.output(0)))).output(0)
        qv = opset.squeeze(opset.matmul(q, opset.unsqueeze(v, i64([-1])), False, False), i64([-1]))
        q = opset.subtract(q, opset.multiply(two, _outer(qv.output(0), v))).output(0)
    return q, r


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr mode must be 'reduced' or 'complete'. Received: mode={mode!r}.")
    x, dtype, work = _float(x)
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)

    def build(a):
        q, r = _householder_qr(cv(a, work), m, n)
        if mode == "reduced":
            q = opset.slice(q, i64([0]), i64([k]), i64([1]), i64([-1])).output(0)
            r = opset.slice(r, i64([0]), i64([k]), i64([1]), i64([-2])).output(0)
        # Entries below the diagonal of R are rounding noise: make them exact zeros.
        rows, cols = (k if mode == "reduced" else m), n
        upper = _mask(np.triu(np.ones((rows, cols), dtype=bool)))
        r = opset.select(upper, r, const_like(0, r)).output(0)
        return [cv(q, dtype), cv(r, dtype)]

    return tuple(run(("qr", m, n, mode, dtype), build, x))


def _jacobi_eigh(a, n):
    """Eigenvalues (ascending) and eigenvectors of symmetric ``a`` by cyclic Jacobi."""
    v = opset.add(
        _eye(n, a), opset.multiply(opset.reduce_sum(a, i64([-1, -2]), True), const_like(0, a))
    ).output(0)
    for _ in range(_SWEEPS):
        for p in range(n - 1):
            for q in range(p + 1, n):
                rot = _jacobi_rotation(
                    _entry(a, p, p), _entry(a, q, q), _entry(a, p, q), p, q, n, a
                )
                a = opset.matmul(opset.matmul(rot, a, True, False), rot, False, False).output(0)
                v = opset.matmul(v, rot, False, False).output(0)
    w = _diag(a, n)
    order = opset.topk(w, opset.constant(np.int64(n)), -1, "min", "value", "i32", True).output(1)
    w = opset.gather_elements(w, order, -1).output(0)
    index = opset.broadcast(opset.unsqueeze(order, i64([-2])), opset.shape_of(v, "i64"))
    v = opset.gather_elements(v, index, rank(v) - 1).output(0)
    return w, v


def _entry(a, i, j):
    """``a[..., i, j]`` shaped (..., 1, 1) for broadcasting against matrices."""
    row = opset.gather(a, i64([i]), i64(-2))
    return opset.gather(row, i64([j]), i64(-1)).output(0)


def _const(values, like):
    return cv(
        opset.constant(np.asarray(values, dtype=np.float32)).output(0),
        _dtypes.name_of_ov(like.get_element_type()),
    )


def eigh(x):
    x, dtype, work = _float(x)
    n = _square("eigh", x)

    def build(m):
        w, v = _jacobi_eigh(cv(m, work), n)
        return [cv(w, dtype), cv(v, dtype)]

    return tuple(run(("eigh", n, dtype), build, x))


def _jacobi_rotation(app, aqq, apq, p, q, n, like):
    """The (n, n) rotation J (``J[p,p] = J[q,q] = c``, ``J[p,q] = s = -J[q,p]``) that
    zeroes the (p, q) entry of ``Jᵀ G J`` for a symmetric G with those entries."""
    zero = const_like(0, like)
    one = const_like(1, like)
    eye = np.eye(n)
    tiny = opset.equal(apq, zero)
    safe = opset.select(tiny, one, apq)
    theta = opset.divide(opset.subtract(aqq, app), opset.multiply(const_like(2, like), safe))
    root = opset.sqrt(opset.add(opset.multiply(theta, theta), one))
    t = opset.divide(
        opset.select(opset.less(theta, zero), const_like(-1, like), one),
        opset.add(abs_node(theta), root),
    )
    t = opset.select(tiny, zero, t)
    c = opset.divide(one, opset.sqrt(opset.add(opset.multiply(t, t), one)))
    s = opset.multiply(t, c)
    epp = eye[:, [p]] @ eye[[p], :] + eye[:, [q]] @ eye[[q], :]
    epq = eye[:, [p]] @ eye[[q], :] - eye[:, [q]] @ eye[[p], :]
    return opset.add(
        opset.add(_eye(n, like), opset.multiply(opset.subtract(c, one), _const(epp, like))),
        opset.multiply(s, _const(epq, like)),
    ).output(0)


def _column_dot(x, y):
    """Column dot products ``sum(x * y)`` over the rows, shaped (..., 1, 1)."""
    return opset.reduce_sum(opset.multiply(x, y), i64([-2]), True).output(0)


def _one_sided_jacobi(a, m, n):
    """Singular values (descending), U (m, n) and V (n, n) of a tall ``a`` (m >= n).

    One-sided (Hestenes) Jacobi: rotations chosen from the column dot products of the
    current ``A V`` orthogonalize its columns, never forming ``AᵀA``; the singular
    values come out as column norms, accurate to ~eps*s_max (not eps*s_max**2/s as
    through the eigenvalues of ``AᵀA``, which loses small ones entirely in float32).
    """
    v = opset.add(
        _eye(n, a), opset.multiply(opset.reduce_sum(a, i64([-1, -2]), True), const_like(0, a))
    ).output(0)
    b = a
    for _ in range(_SWEEPS):
        for p in range(n - 1):
            for q in range(p + 1, n):
                bp = opset.gather(b, i64([p]), i64(-1)).output(0)
                bq = opset.gather(b, i64([q]), i64(-1)).output(0)
                rot = _jacobi_rotation(
                    _column_dot(bp, bp), _column_dot(bq, bq), _column_dot(bp, bq), p, q, n, a
                )
                b = opset.matmul(b, rot, False, False).output(0)
                v = opset.matmul(v, rot, False, False).output(0)
    s = opset.sqrt(opset.reduce_sum(opset.multiply(b, b), i64([-2]), False)).output(0)
    order = opset.topk(s, opset.constant(np.int64(n)), -1, "max", "value", "i32", True).output(1)
    s = opset.gather_elements(s, order, -1).output(0)
    index = opset.broadcast(opset.unsqueeze(order, i64([-2])), opset.shape_of(v, "i64"))
    v = opset.gather_elements(v, index, rank(v) - 1).output(0)
    index = opset.broadcast(opset.unsqueeze(order, i64([-2])), opset.shape_of(b, "i64"))
    b = opset.gather_elements(b, index, rank(b) - 1).output(0)
    safe = opset.select(opset.greater(s, const_like(0, s)), s, const_like(1, s))
    u = opset.divide(b, opset.unsqueeze(safe, i64([-2]))).output(0)
    return s, u, v


def _svd_nodes(a, m, n, compute_uv, full):
    """Singular values (descending), and U, Vᵀ, by one-sided Jacobi on A (or Aᵀ)."""
    wide = m < n
    if wide:  # Aᵀ = U' S V'ᵀ, so A = V' S U'ᵀ
        s, u_t, v_t = _one_sided_jacobi(_transpose_last(a), n, m)
        u, vt = v_t, _transpose_last(u_t)
        if compute_uv and full:
            vt = _transpose_last(_complete(u_t, n, m))
    else:
        s, u, v = _one_sided_jacobi(a, m, n)
        vt = _transpose_last(v)
        if compute_uv and full and m > n:
            u = _complete(u, m, n)
    if not compute_uv:
        return s, None, None
    return s, u, vt


def _complete(u, m, k):
    """An (m, m) orthogonal matrix whose first k columns are the orthonormal ``u``."""
    padded = opset.concat(
        [
            u,
            opset.add(
                _eye(m, u),
                opset.multiply(opset.reduce_sum(u, i64([-1, -2]), True), const_like(0, u)),
            ),
        ],
        -1,
    ).output(0)
    q, _ = _householder_qr(padded, m, m + k)
    head = opset.slice(q, i64([0]), i64([k]), i64([1]), i64([-1]))
    signs = opset.sign(opset.reduce_sum(opset.multiply(head, u), i64([-2]), True))
    signs = opset.select(opset.equal(signs, const_like(0, u)), const_like(1, u), signs)
    head = opset.multiply(head, signs)
    tail = opset.slice(q, i64([k]), i64([m]), i64([1]), i64([-1]))
    return opset.concat([head, tail], -1).output(0)


def svd(x, full_matrices=True, compute_uv=True):
    x, dtype, work = _float(x)
    m, n = x.shape[-2], x.shape[-1]

    def build(a):
        s, u, vt = _svd_nodes(cv(a, work), m, n, compute_uv, full_matrices)
        if not compute_uv:
            return cv(s, dtype)
        return [cv(u, dtype), cv(s, dtype), cv(vt, dtype)]

    out = run(("svd", m, n, bool(full_matrices), bool(compute_uv), dtype), build, x)
    return out


def _pinv_node(a, m, n, rcond):
    s, u, vt = _svd_nodes(a, m, n, True, False)
    top = opset.reduce_max(s, i64([-1]), True)
    keep = opset.greater(s, opset.multiply(top, const_like(rcond, s)))
    inv_s = opset.select(
        keep,
        opset.divide(const_like(1, s), opset.select(keep, s, const_like(1, s))),
        const_like(0, s),
    )
    scaled = opset.multiply(u, opset.unsqueeze(inv_s, i64([-2])))
    return opset.matmul(vt, scaled, True, True).output(0)


def pinv(x, rcond=None):
    x, dtype, work = _float(x)
    m, n = x.shape[-2], x.shape[-1]
    cutoff = 1e-15 if rcond is None else float(rcond)
    # float32 singular values carry ~1e-7 relative noise: never trust less than that.
    cutoff = max(cutoff, 10 * float(np.finfo(np.float32 if work != "float64" else np.float64).eps))
    return run(
        ("pinv", m, n, cutoff, dtype), lambda a: cv(_pinv_node(cv(a, work), m, n, cutoff), dtype), x
    )


def matrix_rank(x, tol=None):
    x = to_tensor(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_rank expects an input of rank 2 or more. Received: {x.shape}.")
    _, _, work = _float(x)
    m, n = x.shape[-2], x.shape[-1]
    eps = float(np.finfo(np.float64 if work == "float64" else np.float32).eps)

    def build(a):
        s, _, _ = _svd_nodes(cv(a, work), m, n, False, False)
        if tol is None:
            limit = opset.multiply(
                opset.reduce_max(s, i64([-1]), True), const_like(max(m, n) * eps, s)
            )
        else:
            limit = const_like(float(tol), s)
        return opset.reduce_sum(cv(opset.greater(s, limit).output(0), "int32"), i64([-1]), False)

    return run(("matrix_rank", m, n, tol, work), build, x)


def lstsq(a, b, rcond=None):
    a, dtype, work = _float(a)
    b = to_tensor(b)
    m, n = a.shape[-2], a.shape[-1]
    eps = float(np.finfo(np.float32 if work != "float64" else np.float64).eps)
    cutoff = max(m, n) * eps if rcond is None else float(rcond)
    cutoff = max(cutoff, 10 * eps)
    vector = b.ndim == 1

    def build(p, q):
        p, q = cv(p, work), cv(q, work)
        if vector:
            q = opset.unsqueeze(q, i64([-1])).output(0)
        out = opset.matmul(_pinv_node(p, m, n, cutoff), q, False, False).output(0)
        if vector:
            out = opset.squeeze(out, i64([-1])).output(0)
        return cv(out, dtype)

    return run(("lstsq", m, n, cutoff, vector, dtype), build, a, b)


def norm(x, ord=None, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = x.dtype
    if "int" in dtype or dtype == "bool":
        dtype = _dtypes.result_type(dtype, "float32")
    work = "float32" if dtype in ("float16", "bfloat16") else dtype
    nd = x.ndim
    axes = canonical_axes(axis, nd, "norm") if axis is not None else None
    if axes is None:
        flat_vector = ord is None or nd == 1
        axes = tuple(range(nd))
    else:
        flat_vector = False
    if len(axes) == 1 or flat_vector:
        kind = "vector"
    elif len(axes) == 2:
        kind = "matrix"
    else:
        raise ValueError(f"norm reduces 1 or 2 axes (or all with ord=None). Received axis={axis}.")

    def build(a):
        a = cv(a, work)
        ax = i64(list(axes))
        absolute = abs_node(a)
        if kind == "vector":
            out = _vector_norm(a, absolute, ax, ord, keepdims)
        else:
            out = _matrix_norm(a, absolute, axes, ord, keepdims)
        return cv(out.output(0) if hasattr(out, "output") else out, dtype)

    return run(
        ("norm", str(ord), axes, kind, bool(keepdims), dtype),
        build,
        x,
        static=kind == "matrix" and ord in (2, -2, "nuc"),
    )


def _vector_norm(a, absolute, ax, ord, keepdims):
    if ord is None or ord == 2 or ord == "fro":
        return opset.sqrt(opset.reduce_sum(opset.multiply(a, a), ax, keepdims))
    if ord == np.inf:
        return opset.reduce_max(absolute, ax, keepdims)
    if ord == -np.inf:
        return opset.reduce_min(absolute, ax, keepdims)
    if ord == 0:
        return opset.reduce_sum(
            cv(
                opset.not_equal(a, const_like(0, a)).output(0),
                _dtypes.name_of_ov(a.get_element_type()),
            ),
            ax,
            keepdims,
        )
    if ord == 1:
        return opset.reduce_sum(absolute, ax, keepdims)
    p = float(ord)
    powered = opset.reduce_sum(opset.power(absolute, const_like(p, a)), ax, keepdims)
    return opset.power(powered, const_like(1.0 / p, a))


def _matrix_norm(a, absolute, axes, ord, keepdims):
    row_axis, col_axis = axes
    if ord is None or ord == "fro":
        out = opset.sqrt(opset.reduce_sum(opset.multiply(a, a), i64(list(axes)), keepdims))
    elif ord in (1, -1):
        sums = opset.reduce_sum(absolute, i64([row_axis]), True)
        out = (opset.reduce_max if ord == 1 else opset.reduce_min)(sums, i64([col_axis]), True)
        if not keepdims:
            out = opset.squeeze(out, i64(list(axes)))
    elif ord in (np.inf, -np.inf):
        sums = opset.reduce_sum(absolute, i64([col_axis]), True)
        out = (opset.reduce_max if ord == np.inf else opset.reduce_min)(sums, i64([row_axis]), True)
        if not keepdims:
            out = opset.squeeze(out, i64(list(axes)))
    elif ord in (2, -2, "nuc"):
        nd = rank(a)
        rest = [d for d in range(nd) if d not in axes]
        moved = opset.transpose(a, i64([*rest, row_axis, col_axis])).output(0)
        m, n = static_shape(moved)[-2:]
        s, _, _ = _svd_nodes(moved, m, n, False, False)
        if ord == "nuc":
            out = opset.reduce_sum(s, i64([-1]), False)
        else:
            out = (opset.reduce_max if ord == 2 else opset.reduce_min)(s, i64([-1]), False)
        if keepdims:
            out = opset.unsqueeze(out, i64(sorted(axes)))
    else:
        raise ValueError(f"Invalid norm order {ord!r} for matrices.")
    return out


def matrix_power(x, n):
    x, dtype, work = (
        _float(x)
        if not _dtypes.is_int_dtype(to_tensor(x).dtype)
        else (to_tensor(x), to_tensor(x).dtype, to_tensor(x).dtype)
    )
    size = _square("matrix_power", x)
    power = int(n)

    def build(a):
        a = cv(a, work)
        if power < 0:
            a = _solve_nodes(a, _eye(size, a), size)
        result = None
        base = a
        k = abs(power)
        while k:
            if k & 1:
                result = (
                    base if result is None else opset.matmul(result, base, False, False).output(0)
                )
            k >>= 1
            if k:
                base = opset.matmul(base, base, False, False).output(0)
        if result is None:
            result = opset.add(_eye(size, a), opset.multiply(a, const_like(0, a))).output(0)
        return cv(result, dtype)

    return run(("matrix_power", size, power, dtype), build, x)


def jvp(fun, primals, tangents, has_aux=False):
    raise NotImplementedError(
        f"jvp is not supported on the openvino backend: {UNSUPPORTED['jvp']}."
    )


def eig(x):
    raise NotImplementedError(
        f"eig is not supported on the openvino backend: {UNSUPPORTED['eig']}."
    )
