"""Products and linear-algebra flavoured ops: matmul, dot, einsum, diagonals, triangles."""

import numpy as np
import openvino as ov

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    canonical_axis,
    const_like,
    cv,
    i64,
    kind_of,
    opset,
    promote,
    rank,
    reshape,
    run,
    static_shape,
    transpose,
)
from mb_backend_openvino.linalg import slogdet_parts
from mb_backend_openvino.numpy._shape import known_dim, ravel
from mb_ops import numpy_shaped


def _work(dtype):
    """Compute dtype of products: bool as int32, low-precision floats in float32."""
    if dtype == "bool":
        return "int32"
    if dtype in ("float16", "bfloat16"):
        return "float32"
    return dtype


def _matmul_node(a, b):
    return opset.matmul(a, b, False, False).output(0)


def matmul(x1, x2):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    numpy_shaped.check_matmul_ranks(x1.shape, x2.shape)
    if x1.dtype == "int8" and x2.dtype == "int8":
        dtype = "int32"  # as JAX: int8 products accumulate in int32
    else:
        dtype = _dtypes.fast_result_type(x1.dtype, x2.dtype)
    work = _work(dtype)

    def build(a, b):
        return cv(_matmul_node(cv(a, work), cv(b, work)), dtype)

    return run(("matmul", dtype), build, x1, x2)


def _tensordot_node(a, b, axes_a, axes_b):
    sa, sb = static_shape(a), static_shape(b)
    free_a = [d for d in range(len(sa)) if d not in axes_a]
    free_b = [d for d in range(len(sb)) if d not in axes_b]
    k = int(np.prod([sa[d] for d in axes_a])) if axes_a else 1
    if not free_a and not free_b:
        # A full contraction: (1, k) @ (k, 1) reshaped to a scalar crashes OpenVINO's CPU
        # plugin (2026.4), so sum the products instead.
        flat_a = reshape(transpose(a, list(axes_a)), [-1])
        flat_b = reshape(transpose(b, list(axes_b)), [-1])
        return opset.reduce_sum(opset.multiply(flat_a, flat_b), i64([0]), False).output(0)
    left = reshape(transpose(a, free_a + list(axes_a)), [-1, k] if free_a else [1, k])
    right = reshape(transpose(b, list(axes_b) + free_b), [k, -1] if free_b else [k, 1])
    out = _matmul_node(left, right)
    return reshape(out, [sa[d] for d in free_a] + [sb[d] for d in free_b])


def _product(name, x1, x2, body, static=True):
    (a, b), dtype = promote(to_tensor(x1), to_tensor(x2))
    work = _work(dtype)

    def build(p, q):
        return cv(body(cv(p, work), cv(q, work)), dtype)

    return run((name, dtype), build, a, b, static=static)


def tensordot(x1, x2, axes=2):
    t1, t2 = to_tensor(x1), to_tensor(x2)
    if isinstance(axes, int | np.integer):
        n = int(axes)
        axes_a = list(range(t1.ndim - n, t1.ndim))
        axes_b = list(range(n))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int | np.integer) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int | np.integer) else list(axes_b)
    axes_a = [canonical_axis(a, t1.ndim, "tensordot") for a in axes_a]
    axes_b = [canonical_axis(b, t2.ndim, "tensordot") for b in axes_b]
    body = lambda p, q: _tensordot_node(p, q, axes_a, axes_b)  # noqa: E731
    return _product(("tensordot", tuple(axes_a), tuple(axes_b)), t1, t2, body)


def dot(x1, x2):
    t1, t2 = to_tensor(x1), to_tensor(x2)
    if t1.ndim == 0 or t2.ndim == 0:
        return _product("dot0", t1, t2, lambda p, q: opset.multiply(p, q).output(0), static=False)
    if t2.ndim == 1:
        return tensordot(t1, t2, axes=([-1], [0]))
    return tensordot(t1, t2, axes=([-1], [-2]))


def inner(x1, x2):
    t1, t2 = to_tensor(x1), to_tensor(x2)
    if t1.ndim == 0 or t2.ndim == 0:
        return dot(t1, t2)
    return tensordot(t1, t2, axes=([-1], [-1]))


def outer(x1, x2):
    def body(p, q):
        return opset.multiply(reshape(p, [-1, 1]), reshape(q, [1, -1])).output(0)

    return _product("outer", x1, x2, body, static=False)


def vdot(x1, x2):
    def body(p, q):
        return opset.reduce_sum(
            opset.multiply(reshape(p, [-1]), reshape(q, [-1])), i64([0]), False
        ).output(0)

    return _product("vdot", x1, x2, body, static=False)


def kron(x1, x2):
    def body(p, q):
        sa, sb = list(static_shape(p)), list(static_shape(q))
        nd = max(len(sa), len(sb))
        sa, sb = [1] * (nd - len(sa)) + sa, [1] * (nd - len(sb)) + sb
        pa = reshape(p, [d for pair in zip(sa, [1] * nd, strict=True) for d in pair])
        qb = reshape(q, [d for pair in zip([1] * nd, sb, strict=True) for d in pair])
        return reshape(
            opset.multiply(pa, qb).output(0), [x * y for x, y in zip(sa, sb, strict=True)]
        )

    return _product("kron", x1, x2, body)


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    (a, b), dtype = promote(to_tensor(x1), to_tensor(x2))
    ax_a, ax_b = canonical_axis(axisa, a.ndim, "cross"), canonical_axis(axisb, b.ndim, "cross")
    na, nb = a.shape[ax_a], b.shape[ax_b]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(
            f"cross expects vectors of length 2 or 3 along the axes. Received lengths {na}, {nb}."
        )
    work = _work(dtype)

    def build(p, q):
        p = opset.transpose(
            cv(p, work), i64([d for d in range(a.ndim) if d != ax_a] + [ax_a])
        ).output(0)
        q = opset.transpose(
            cv(q, work), i64([d for d in range(b.ndim) if d != ax_b] + [ax_b])
        ).output(0)

        def comp(node, i, n):
            if i >= n:
                return const_like(0, node)
            return opset.gather(node, i64(i), i64(-1)).output(0)

        a0, a1, a2 = (comp(p, i, na) for i in range(3))
        b0, b1, b2 = (comp(q, i, nb) for i in range(3))

        def det(u, v, w, z):
            return opset.subtract(opset.multiply(u, v), opset.multiply(w, z))

        z = det(a0, b1, a1, b0)
        if na == 2 and nb == 2:
            return cv(z.output(0), dtype)
        x = det(a1, b2, a2, b1)
        y = det(a2, b0, a0, b2)
        out = opset.concat([opset.unsqueeze(c, i64([-1])) for c in (x, y, z)], -1).output(0)
        nd = rank(out)
        c = canonical_axis(axisc, nd, "cross")
        perm = list(range(nd - 1))
        perm.insert(c, nd - 1)
        return cv(opset.transpose(out, i64(perm)).output(0), dtype)

    return run(("cross", ax_a, ax_b, axisc, dtype), build, a, b)


def einsum(subscripts, *operands, **kwargs):
    operands = [to_tensor(x) for x in operands]
    kinds = {x.dtype for x in operands}
    if kinds == {"int8"}:
        compute = result = "int32"
    else:
        result = _dtypes.result_type(*kinds)
        compute = _work(result)
    equation = subscripts.replace(" ", "")

    def build(*nodes):
        return cv(opset.einsum([cv(n, compute) for n in nodes], equation).output(0), result)

    return run(("einsum", equation, result), build, *operands)


def trace(x, offset=0, axis1=0, axis2=1):
    x = to_tensor(x)
    dtype = _dtypes.sum_dtype(x.dtype)
    a1, a2 = canonical_axis(axis1, x.ndim, "trace"), canonical_axis(axis2, x.ndim, "trace")
    rows, cols = x.shape[a1], x.shape[a2]
    k = int(offset)
    rest = [d for d in range(x.ndim) if d not in (a1, a2)]

    def build(a):
        a = cv(a, "int32" if dtype == "bool" else dtype)
        moved = opset.transpose(a, i64([*rest, a1, a2]))
        mask = opset.eye(i64(rows), i64(cols), i64(k), "boolean")
        kept = opset.select(mask, moved, const_like(0, a))
        return cv(opset.reduce_sum(kept, i64([-2, -1]), False).output(0), dtype)

    return run(("trace", a1, a2, k, rows, cols, dtype), build, x)


def _stat_dtype(dtype):
    if dtype in ("int64", "float64"):
        return "float64"
    if dtype in ("bfloat16", "float16"):
        return dtype
    return _dtypes.floatx()


def corrcoef(x):
    x = to_tensor(x)
    dtype = _stat_dtype(x.dtype)
    work = "float64" if dtype == "float64" else "float32"

    def build(a):
        a = cv(a, work)
        if rank(a) == 1:
            a = opset.unsqueeze(a, i64([0])).output(0)
        centered = opset.subtract(a, opset.reduce_mean(a, i64([1]), True))
        cov = opset.matmul(centered, centered, False, True)
        d = opset.sqrt(opset.reduce_sum(opset.multiply(centered, centered), i64([1]), False))
        norm = opset.multiply(opset.unsqueeze(d, i64([1])), opset.unsqueeze(d, i64([0])))
        out = opset.divide(cov, norm)
        out = opset.clamp(out, -1.0, 1.0)
        if vector:
            out = opset.squeeze(out, i64([0, 1]))
        return cv(out.output(0), dtype)

    vector = x.ndim == 1
    return run(("corrcoef", dtype), build, x)


def correlate(x1, x2, mode="valid"):
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"correlate mode must be 'valid', 'same' or 'full', received {mode!r}.")
    dtype = _dtypes.result_type(kind_of(x1), kind_of(x2))
    if dtype == "int64":
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16", "float64"):
        dtype = "float32"
    compute = _work(dtype)
    a, v = to_tensor(x1), to_tensor(x2)
    n, m = a.shape[0], v.shape[0]
    swap = m > n
    short, long_ = min(n, m), max(n, m)
    full_len = n + m - 1
    if mode == "valid":
        start, length = short - 1, long_ - short + 1
    elif mode == "same":
        start, length = (short - 1) // 2, long_
    else:
        start, length = 0, full_len

    def build(p, q):
        p, q = cv(p, compute), cv(q, compute)
        if swap:
            p, q = q, p
        k = short
        signal = opset.pad(
            reshape(p, [1, 1, -1]),
            i64([0, 0, k - 1]),
            i64([0, 0, k - 1]),
            "constant",
            const_like(0, p),
        )
        kernel = reshape(q, [1, 1, -1])
        full = opset.convolution(signal, kernel, [1], [0], [0], [1])
        full = reshape(full.output(0), [-1])
        if swap:
            full = opset.slice(
                full, i64([-1]), i64([np.iinfo(np.int64).min]), i64([-1]), i64([0])
            ).output(0)
        out = opset.slice(full, i64([start]), i64([start + length]), i64([1]), i64([0]))
        return cv(out.output(0), dtype)

    return run(("correlate", mode, n, m, dtype), build, a, v, static=True)


def vander(x, N=None, increasing=False):
    x = to_tensor(x)
    dtype = _dtypes.result_type(x.dtype)
    compute = _dtypes.result_type(x.dtype, _dtypes.floatx())
    cols = x.shape[0] if N is None else int(N)

    def build(a):
        a = cv(a, compute)
        powers = np.arange(cols, dtype=np.float64)
        if not increasing:
            powers = powers[::-1].copy()
        exps = cv(opset.constant(powers.astype(np.float32)).output(0), compute)
        out = opset.power(opset.unsqueeze(a, i64([1])), exps)
        if not _dtypes.is_float_dtype(dtype):
            out = opset.round(out, "half_to_even")
        return cv(out.output(0), dtype)

    return run(("vander", cols, bool(increasing), dtype), build, x)


def slogdet(x):
    return slogdet_parts(x)


def _eye_mask(rows, cols, k):
    return opset.eye(i64(rows), i64(cols), i64(k), "boolean").output(0)


def diag(x, k=0):
    x = to_tensor(x)
    k = int(k)
    if x.ndim == 1:
        m = known_dim(x, 0)
        n = m + abs(k)

        def build(v):
            padded = opset.pad(v, i64([0]), i64([abs(k)]), "constant", const_like(0, v))
            # k >= 0: row i holds v[i]; k < 0: column j holds v[j].
            values = opset.unsqueeze(padded, i64([1 if k >= 0 else 0]))
            full = opset.broadcast(values, i64([n, n]))
            return opset.select(_eye_mask(n, n, k), full, const_like(0, v))

        return run(("diag1", k, m), build, x)
    if x.ndim == 2:
        return diagonal(x, offset=k)
    raise ValueError(f"diag expects a 1-D or 2-D input. Received: shape {x.shape}.")


def diagflat(x, k=0):
    return diag(ravel(x), k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    x = to_tensor(x)
    a1, a2 = canonical_axis(axis1, x.ndim, "diagonal"), canonical_axis(axis2, x.ndim, "diagonal")
    rows, cols = known_dim(x, a1), known_dim(x, a2)
    k = int(offset)
    length = max(0, min(rows, cols - k) if k >= 0 else min(rows + k, cols))
    rest = [d for d in range(x.ndim) if d not in (a1, a2)]
    idx = [(i + max(-k, 0)) * cols + (i + max(k, 0)) for i in range(length)]

    def build(a):
        moved = opset.transpose(a, i64([*rest, a1, a2]))
        flat = opset.reshape(moved, i64([0] * len(rest) + [-1]), True)
        return opset.gather(flat, i64(idx), i64(len(rest)))

    return run(("diagonal", a1, a2, k, rows, cols), build, x)


def _triangle(x, k, lower):
    x = to_tensor(x)
    k = int(k)
    rows, cols = known_dim(x, -2), known_dim(x, -1)
    keep = np.tri(rows, cols, k, dtype=bool) if lower else ~np.tri(rows, cols, k - 1, dtype=bool)

    def build(a):
        mask = opset.constant(keep)
        return opset.select(
            mask,
            a,
            const_like(0, a) if a.get_element_type() != ov.Type.boolean else opset.constant(False),
        )

    return run(("tril" if lower else "triu", k, rows, cols), build, x)


def tril(x, k=0):
    return _triangle(x, k, True)


def triu(x, k=0):
    return _triangle(x, k, False)
