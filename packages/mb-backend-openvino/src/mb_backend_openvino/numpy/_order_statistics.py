"""Order statistics: sorting, partitioning, medians, quantiles and percentiles."""

import math

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    canonical_axes,
    canonical_axis,
    const,
    const_like,
    cv,
    i64,
    opset,
    rank,
    reshape,
    run,
    static_shape,
    transpose,
)
from mb_backend_openvino.numpy._common import cast_to, is_float, is_nan

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def sort_last(a, n):
    """``a`` sorted ascending along its last axis of static length ``n`` (NaNs last)."""
    if n == 0:
        return a
    if is_float(a):
        nan = is_nan(a)
        filled = opset.select(nan, const_like(math.inf, a), a)
        values = opset.topk(filled, opset.constant(np.int64(n)), -1, "min", "value", "i32", True)
        order = values.output(1)
        return opset.gather_elements(a, order, -1).output(0)
    values = opset.topk(a, opset.constant(np.int64(n)), -1, "min", "value", "i32", True)
    return values.output(0)


def _quantile(name, x, q, axis, method, keepdims, nan, scale=1.0):
    if method not in _METHODS:
        raise ValueError(f"{name}: method must be one of {_METHODS}, received {method!r}.")
    x = to_tensor(x)
    if x.dtype == "bool":
        x = cast_to(x, _dtypes.floatx())
    out_dtype = _dtypes.floatx() if x.dtype == "int64" else _dtypes.result_type(x.dtype, float)
    q = to_tensor(q)
    ndim = x.ndim
    axes = canonical_axes(axis, ndim, name)
    keep = [d for d in range(ndim) if d not in axes]
    work = "float64" if out_dtype == "float64" else "float32"

    def build(a, qq):
        a = cv(a, work)
        qq = opset.divide(cv(qq, work), const_like(scale, cv(qq, work))).output(0)
        shape = static_shape(a)
        moved = transpose(a, keep + list(axes))
        n = int(np.prod([shape[d] for d in axes])) if axes else 1
        kept_shape = [shape[d] for d in keep]
        flat = reshape(moved, [*kept_shape, n])
        ordered = sort_last(flat, n)
        if nan:
            valid = opset.reduce_sum(
                cv(opset.logical_not(is_nan(flat)).output(0), work), i64([-1]), True
            )
        else:
            valid = const_like(float(n), ordered)
        last = opset.subtract(valid, const_like(1, ordered))
        q_rank = rank(qq)
        # positions: shape q.shape + kept + [1]
        qb = (
            reshape(qq, static_shape(qq) + (1,) * (len(kept_shape) + 1))
            if q_rank
            else reshape(qq, [1] * (len(kept_shape) + 1))
        )
        pos = opset.multiply(qb, last)
        lo = opset.floor(pos)
        hi = opset.ceiling(pos)
        if method == "lower":
            pos_lo = pos_hi = lo
        elif method == "higher":
            pos_lo = pos_hi = hi
        elif method == "nearest":
            pos_lo = pos_hi = opset.round(pos, "half_to_even")
        else:
            pos_lo, pos_hi = lo, hi
        target = list(static_shape(qq)) + kept_shape + [n]
        data = opset.broadcast(ordered, i64(target))
        clamp_hi = opset.maximum(last, const_like(0, last))

        def take(p):
            p = opset.minimum(opset.maximum(p, const_like(0, p)), clamp_hi)
            idx = opset.convert(p, "i32")
            idx = opset.broadcast(idx, i64([*target[:-1], 1]))
            return opset.squeeze(opset.gather_elements(data, idx, -1), i64([-1]))

        low, high = take(pos_lo), take(pos_hi)
        if method == "midpoint":
            value = opset.multiply(opset.add(low, high), const_like(0.5, low))
        elif method == "linear":
            frac = opset.squeeze(opset.subtract(pos, lo), i64([-1]))
            value = opset.add(low, opset.multiply(opset.subtract(high, low), frac))
        else:
            value = low
        if not nan and is_float(flat):
            has_nan = opset.squeeze(
                opset.reduce_logical_or(is_nan(flat), i64([-1]), True), i64([-1])
            )
            value = opset.select(has_nan, const_like(math.nan, low), value)
        value = value.output(0) if hasattr(value, "output") else value
        if keepdims:
            full = list(static_shape(qq))
            for d in range(ndim):
                full.append(1 if d in axes else shape[d])
            value = reshape(value, full)
        return cv(value, out_dtype)

    key = (name, axes, method, bool(keepdims), out_dtype, scale)
    return run(key, build, x, q, static=True)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile("quantile", x, q, axis, method, keepdims, False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile("nanquantile", x, q, axis, method, keepdims, True)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile("percentile", x, q, axis, method, keepdims, False, scale=100.0)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile("nanpercentile", x, q, axis, method, keepdims, True, scale=100.0)


def median(x, axis=None, keepdims=False):
    x = to_tensor(x)
    out = _quantile("median", x, 0.5, axis, "linear", keepdims, False)
    return cast_to(out, _dtypes.result_type(x.dtype, float))


def nanmedian(x, axis=None, keepdims=False):
    x = to_tensor(x)
    out = _quantile("nanmedian", x, 0.5, axis, "linear", keepdims, True)
    return cast_to(out, _dtypes.result_type(x.dtype, float))


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
