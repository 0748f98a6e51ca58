"""Selecting, sorting, searching and counting."""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    canonical_axis,
    const,
    const_like,
    cv,
    i64,
    opset,
    promote,
    rank,
    reshape,
    run,
)
from mb_backend_openvino.numpy._common import floor_divide_node, is_float, is_nan


def where(condition, x1=None, x2=None):
    condition = to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError(
            "where expects both `x1` and `x2`, or neither. "
            f"Received: x1={'None' if x1 is None else 'a value'}, "
            f"x2={'None' if x2 is None else 'a value'}."
        )
    (a, b), dtype = promote(x1, x2)

    def build(c, p, q):
        return opset.select(cv(c, "bool"), cv(p, dtype), cv(q, dtype))

    return run(("where", dtype), build, condition, a, b)


def select(condlist, choicelist, default=0):
    conds = [to_tensor(c) for c in condlist]
    choices, dtype = promote(*choicelist, default)
    n = len(conds)

    def build(*nodes):
        cs, vs = nodes[:n], nodes[n:]
        out = cv(vs[-1], dtype)
        for c, v in zip(reversed(cs), reversed(vs[:-1]), strict=True):
            out = opset.select(cv(c, "bool"), cv(v, dtype), out).output(0)
        return out

    return run(("select", n, dtype), build, *conds, *choices)


def nonzero(x):
    x = to_tensor(x)
    nd = x.ndim

    def build(a):
        found = opset.non_zero(cv(a, "bool") if a.get_element_type().is_real() else a, "i32")
        if nd == 0:
            return [found.output(0)]
        parts = opset.split(found, i64(0), nd)
        return [opset.squeeze(p, i64([0])).output(0) for p in parts.outputs()]

    out = run(("nonzero", nd), build, x)
    return out if isinstance(out, tuple) else (out,)


def take(x, indices, axis=None):
    x, indices = to_tensor(x), to_tensor(indices)
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, "take")

    def build(a, idx):
        if flatten:
            a = reshape(a, [-1])
        idx = cv(idx, "int32") if not idx.get_element_type().is_integral_number() else idx
        return opset.gather(a, idx, i64(ax))

    return run(("take", None if flatten else ax), build, x, indices)


def take_along_axis(x, indices, axis=None):
    x, indices = to_tensor(x), to_tensor(indices)
    if axis is None:
        return take(reshape_flat(x), indices)
    ax = canonical_axis(axis, x.ndim, "take_along_axis")

    def build(a, idx):
        idx = cv(idx, "int32")
        # Broadcast every other axis, as JAX does; negative indices count from the end.
        sa, si = opset.shape_of(a, "i32"), opset.shape_of(idx, "i32")
        mask = np.zeros(rank(a), dtype=bool)
        mask[ax] = True
        both = opset.maximum(sa, si)
        a_shape = opset.select(opset.constant(mask), sa, both)
        i_shape = opset.select(opset.constant(mask), si, both)
        a = opset.broadcast(a, a_shape)
        idx = opset.broadcast(idx, i_shape)
        n = opset.gather(sa, i64([ax]), i64(0))
        idx = opset.select(opset.less(idx, const_like(0, idx)), opset.add(idx, n), idx)
        return opset.gather_elements(a, idx, ax)

    return run(("take_along_axis", ax), build, x, indices)


def reshape_flat(x):
    return run(("reshape", (-1,)), lambda a: reshape(a, [-1]), x)


def _sorted(x, axis, indices):
    x = to_tensor(x)
    if x.ndim == 0:
        return x
    ax = canonical_axis(axis, x.ndim, "sort")
    n = x.shape[ax]
    nd = x.ndim

    def build(a):
        if a.get_element_type().get_type_name() == "boolean":
            a = cv(a, "int32")
            was_bool = True
        else:
            was_bool = False
        perm = [d for d in range(nd) if d != ax] + [ax]
        inv = list(np.argsort(perm))
        moved = opset.transpose(a, i64(perm)).output(0)
        if n == 0:
            out = cv(moved, "int32") if indices else moved
        else:
            key = moved
            if is_float(moved):
                key = opset.select(is_nan(moved), const_like(np.inf, moved), moved).output(0)
            top = opset.topk(key, opset.constant(np.int64(n)), -1, "min", "value", "i32", True)
            order = top.output(1)
            if is_float(moved):
                # NaNs last: among equal keys (inf and nan) sort by being nan.
                nan_key = cv(opset.gather_elements(is_nan(moved), order, -1).output(0), "int32")
                top2 = opset.topk(
                    nan_key, opset.constant(np.int64(n)), -1, "min", "value", "i32", True
                )
                order = opset.gather_elements(order, top2.output(1), -1).output(0)
            out = order if indices else opset.gather_elements(moved, order, -1).output(0)
        out = opset.transpose(out, i64(inv)).output(0)
        if was_bool and not indices:
            out = cv(out, "bool")
        return out

    return run(("argsort" if indices else "sort", ax, n), build, x)


def sort(x, axis=-1):
    return _sorted(x, axis, False)


def argsort(x, axis=-1):
    x = to_tensor(x)
    if x.ndim == 0:
        return run("argsort0", lambda a: const(0, "int32"), x)
    return _sorted(x, axis, True)


def argpartition(x, kth, axis=-1):
    """A full argsort is one valid partition: every element before ``kth`` is smaller."""
    return argsort(x, axis)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence, values = to_tensor(sorted_sequence), to_tensor(values)
    if sorted_sequence.ndim != 1:
        raise ValueError(
            "searchsorted supports only 1-D sorted sequences. Received: "
            f"sorted_sequence.shape={sorted_sequence.shape}. Use vectorized_map for N-D inputs."
        )
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted side must be 'left' or 'right', received {side!r}.")
    (s, v), dtype = promote(sorted_sequence, values)

    def build(p, q):
        found = opset.search_sorted(cv(p, dtype), cv(q, dtype), right_mode=side == "right")
        return cv(found.output(0), "int32")

    return run(("searchsorted", side, dtype), build, s, v)


def digitize(x, bins):
    """Bin indices for increasing ``bins`` (``bins[i-1] <= x < bins[i]``)."""
    x, bins = to_tensor(x), to_tensor(bins)
    (a, b), dtype = promote(x, bins)

    def build(p, q):
        found = opset.search_sorted(cv(q, dtype), cv(p, dtype), right_mode=True)
        return cv(found.output(0), "int32")

    return run(("digitize", dtype), build, a, b)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError(
            "bincount(sparse=True) is not supported on the openvino backend: it has no sparse "
            "tensors. Pass sparse=False."
        )
    x = to_tensor(x)
    inputs = [x]
    if weights is not None:
        weights = to_tensor(weights)
        dtype = _dtypes.result_type(x.dtype, weights.dtype)
        inputs.append(weights)
    else:
        dtype = "int32"
    work = "int32" if dtype == "bool" else dtype
    minlength = int(minlength)
    two_d = x.ndim == 2

    def build(idx, *w):
        idx = cv(idx, "int32")
        top = opset.reduce_max(reshape(idx, [-1]), i64([0]), True)
        length = opset.maximum(
            opset.add(top, opset.constant(np.array([1], np.int32))),
            opset.constant(np.array([minlength], np.int32)),
        )
        upd = cv(w[0], work) if w else opset.broadcast(const(1, work), opset.shape_of(idx))
        if two_d:
            rows = opset.gather(opset.shape_of(idx, "i32"), i64([0]), i64(0))
            shape = opset.concat([rows, length], 0)
            zeros = opset.broadcast(const(0, work), shape)
            return cv(
                opset.scatter_elements_update(zeros, idx, upd, i64(1), "sum").output(0), dtype
            )
        zeros = opset.broadcast(const(0, work), length)
        return cv(opset.scatter_elements_update(zeros, idx, upd, i64(0), "sum").output(0), dtype)

    return run(("bincount", minlength, dtype, two_d), build, *inputs)


def histogram(x, bins=10, range=None):
    """Counts and bin edges, both in ``x``'s dtype (mb's rule, as Keras's JAX backend)."""
    x = to_tensor(x)
    bins = int(bins)
    dtype = x.dtype
    work = "float64" if dtype == "float64" else "float32"
    lo_hi = None if range is None else (float(range[0]), float(range[1]))

    def build(a):
        a = cv(reshape(a, [-1]), work)
        if lo_hi is None:
            lo = opset.reduce_min(a, i64([0]), False)
            hi = opset.reduce_max(a, i64([0]), False)
        else:
            lo, hi = const(lo_hi[0], work), const(lo_hi[1], work)
        steps = cv(
            opset.range(
                opset.constant(np.int32(0)),
                opset.constant(np.int32(bins + 1)),
                opset.constant(np.int32(1)),
                "i32",
            ).output(0),
            work,
        )
        edges = opset.add(
            lo,
            opset.multiply(steps, opset.divide(opset.subtract(hi, lo), const(float(bins), work))),
        )
        edges = opset.concat(
            [
                opset.slice(edges, i64([0]), i64([bins]), i64([1]), i64([0])),
                opset.unsqueeze(hi, i64([0])),
            ],
            0,
        )
        index = cv(opset.search_sorted(edges, a, right_mode=True).output(0), "int32")
        index = opset.subtract(index, opset.constant(np.int32(1)))
        index = opset.select(opset.equal(a, hi), opset.constant(np.int32(bins - 1)), index)
        inside = opset.logical_and(opset.greater_equal(a, lo), opset.less_equal(a, hi))
        index = opset.select(inside, index, opset.constant(np.int32(bins)))
        ones = opset.broadcast(opset.constant(np.int32(1)), opset.shape_of(index))
        counts = opset.scatter_elements_update(
            opset.broadcast(opset.constant(np.int32(0)), i64([bins + 1])),
            index,
            ones,
            i64(0),
            "sum",
        )
        counts = opset.slice(counts, i64([0]), i64([bins]), i64([1]), i64([0]))
        return [cv(counts.output(0), dtype), cv(edges.output(0), dtype)]

    counts, edges = run(("histogram", bins, lo_hi, dtype), build, x)
    return counts, edges


def unravel_index(indices, shape):
    indices = to_tensor(indices)
    dtype = _dtypes.result_type(indices.dtype)
    dims = [int(d) for d in shape]

    def build(idx):
        idx = cv(idx, dtype)
        outs = []
        stride = 1
        strides = []
        for d in reversed(dims):
            strides.append(stride)
            stride *= d
        strides.reverse()
        for d, s in zip(dims, strides, strict=True):
            q = floor_divide_node(idx, const(s, dtype))
            outs.append(opset.floor_mod(q, const(d, dtype)).output(0))
        return outs

    out = run(("unravel_index", tuple(dims), dtype), build, indices)
    return out if isinstance(out, tuple) else (out,)


def unique(
    x,
    sorted=True,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    size=None,
    fill_value=None,
):
    x = to_tensor(x)
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, "unique")
    fill = 0 if fill_value is None else fill_value
    dtype = x.dtype

    def build(a):
        if flatten:
            a = reshape(a, [-1])
        found = opset.unique(
            a, axis=i64(ax), sorted=True, index_element_type="i32", count_element_type="i32"
        )
        values, index, inverse, counts = (found.output(i) for i in range(4))
        if size is not None:
            values = _fix_size(values, ax, int(size), const(fill, dtype))
            index = _fix_size(index, 0, int(size), const(1, "int32"))
            counts = _fix_size(counts, 0, int(size), const(0, "int32"))
        outs = [values]
        if return_index:
            outs.append(index)
        if return_inverse:
            outs.append(reshape(inverse, list(x.shape)) if flatten else inverse)
        if return_counts:
            outs.append(counts)
        return outs

    key = (
        "unique",
        None if flatten else ax,
        size,
        fill,
        bool(return_index),
        bool(return_inverse),
        bool(return_counts),
        tuple(x.shape) if flatten else None,
    )
    out = run(key, build, x)
    return out[0] if len(out) == 1 else tuple(out)


def _fix_size(node, axis, size, fill):
    """``node`` cut or padded (with ``fill``) to ``size`` along ``axis``."""
    nd = rank(node)
    n = opset.gather(opset.shape_of(node, "i64"), i64([axis]), i64(0))
    missing = opset.maximum(opset.subtract(i64([size]), n), i64([0]))
    zeros = i64([0] * nd)
    pads_end = opset.scatter_update(zeros, i64([axis]), missing, i64(0))
    padded = opset.pad(node, zeros, pads_end, "constant", fill)
    return opset.slice(padded, i64([0]), i64([size]), i64([1]), i64([axis])).output(0)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` applied to every element (or core-dims slice) of broadcast inputs."""
    if signature is not None:
        raise NotImplementedError(
            "vectorize is not supported on the openvino backend with a `signature`: only "
            "element-wise functions can be vectorized. Use vectorized_map instead."
        )
    excluded = set(excluded or ())

    def wrapped(*args, **kwargs):
        mapped = [i for i, a in enumerate(args) if i not in excluded]
        tensors = [to_tensor(args[i]) for i in mapped]
        shape = np.broadcast_shapes(*[t.shape for t in tensors])
        flat = [reshape_flat(broadcast(t, shape)) for t in tensors]
        outs = []
        for j in range(int(np.prod(shape))):
            call = list(args)
            for i, t in zip(mapped, flat, strict=True):
                call[i] = t[j]
            outs.append(to_tensor(pyfunc(*call, **kwargs)))
        from_stack = stack_flat(outs)
        return run(("reshape", tuple(shape)), lambda a: reshape(a, list(shape)), from_stack)

    return wrapped


def broadcast(x, shape):
    return run(("broadcast_to", tuple(shape)), lambda a: opset.broadcast(a, i64(list(shape))), x)


def stack_flat(xs):
    dtype = xs[0].dtype
    return run(
        ("stack_flat", len(xs), dtype),
        lambda *n: opset.concat([reshape(cv(v, dtype), [1]) for v in n], 0),
        *xs,
    )
