"""Reductions over axes: sums, products, means, moments, extremes, arg-extremes, counts,
``average``, ``trapezoid``, ``bincount`` and ``histogram``."""

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
    promote,
    rank,
    reshape,
    run,
    static_shape,
)
from mb_backend_openvino.numpy._common import cast_to, is_float, is_nan


def _axes_key(axis):
    if axis is None:
        return None
    if isinstance(axis, int | np.integer):
        return int(axis)
    return tuple(int(a) for a in axis)


def _reduce(name, fn, x, axis, keepdims, compute=None, out=None, prepare=None):
    """Reduce ``x`` over ``axis`` with the OpenVINO reduction ``fn``."""
    x = to_tensor(x)
    dtype = x.dtype
    work = dtype if compute is None else compute
    result = work if out is None else out
    axes = canonical_axes(axis, x.ndim, name)

    def build(a):
        a = cv(a, work)
        if prepare is not None:
            a = prepare(a)
        if not axes:
            return cv(a, result)
        return cv(fn(a, i64(list(axes)), bool(keepdims)).output(0), result)

    return run((name, axes, bool(keepdims), work, result), build, x)


def sum(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = _dtypes.sum_dtype(x.dtype)
    work = "int32" if x.dtype == "bool" else dtype
    return _reduce("sum", opset.reduce_sum, x, axis, keepdims, compute=work, out=dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = to_tensor(x)
    dtype = _dtypes.sum_dtype(x.dtype) if dtype is None else _dtypes.standardize_dtype(dtype)
    work = "int32" if dtype == "bool" else dtype
    return _reduce("prod", opset.reduce_prod, x, axis, keepdims, compute=work, out=dtype)


def _mean_dtype(dtype):
    if "int" in dtype or dtype == "bool":
        return _dtypes.result_type(dtype, "float32")
    return dtype


def _compute(dtype):
    return "float32" if dtype in ("float16", "bfloat16") else dtype


def mean(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = _mean_dtype(x.dtype)
    return _reduce("mean", opset.reduce_mean, x, axis, keepdims, compute=_compute(dtype), out=dtype)


def _extreme(name, fn, bool_fn, x, axis, keepdims, initial=None):
    x = to_tensor(x)
    dtype = x.dtype
    reducer = bool_fn if dtype == "bool" else fn

    def prepare(a):
        return a

    out = _reduce(
        name, _nan_propagating(reducer, name == "max"), x, axis, keepdims, prepare=prepare
    )
    if initial is not None:
        from_initial = _max_with if name == "max" else _min_with
        out = from_initial(out, initial)
        out = cast_to(out, dtype)
    return out


def _nan_propagating(reducer, is_max):
    def fn(a, axes, keepdims):
        out = reducer(a, axes, keepdims)
        if not is_float(a):
            return out
        any_nan = opset.reduce_logical_or(is_nan(a), axes, keepdims)
        nan = const_like(math.nan, a)
        return opset.select(any_nan, nan, out)

    return fn


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme("max", opset.reduce_max, opset.reduce_logical_or, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme("min", opset.reduce_min, opset.reduce_logical_and, x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    x = to_tensor(x)
    return _reduce("all", opset.reduce_logical_and, x, axis, keepdims, compute="bool")


def any(x, axis=None, keepdims=False):
    x = to_tensor(x)
    return _reduce("any", opset.reduce_logical_or, x, axis, keepdims, compute="bool")


def ptp(x, axis=None, keepdims=False):
    x = to_tensor(x)

    def fn(a, axes, keep):
        hi = _nan_propagating(opset.reduce_max, True)(a, axes, keep)
        lo = _nan_propagating(opset.reduce_min, False)(a, axes, keep)
        return opset.subtract(hi, lo)

    return _reduce("ptp", fn, x, axis, keepdims)


def _moments(a, axes, keepdims, nan):
    """Mean and variance over ``axes`` (NaNs skipped when ``nan``)."""
    axes_node = i64(list(axes))
    if nan:
        valid = opset.logical_not(is_nan(a))
        zero = const_like(0, a)
        filled = opset.select(valid, a, zero)
        count = opset.reduce_sum(cv(valid.output(0), _dtype_name(a)), axes_node, True)
        mean = opset.divide(opset.reduce_sum(filled, axes_node, True), count)
        dev = opset.select(valid, opset.subtract(a, mean), zero)
        var = opset.divide(
            opset.reduce_sum(opset.multiply(dev, dev), axes_node, keepdims),
            _maybe_squeeze(count, axes, keepdims),
        )
        return mean, var
    mean = opset.reduce_mean(a, axes_node, True)
    dev = opset.subtract(a, mean)
    var = opset.reduce_mean(opset.multiply(dev, dev), axes_node, keepdims)
    return mean, var


def _maybe_squeeze(node, axes, keepdims):
    if keepdims:
        return node
    return opset.squeeze(node, i64(list(axes)))


def _dtype_name(node):
    return _dtypes.name_of_ov(node.get_element_type())


def _moment(name, x, axis, keepdims, nan, root):
    x = to_tensor(x)
    compute = _dtypes.result_type(x.dtype, "float32")
    out = _dtypes.result_type(x.dtype, float)
    axes = canonical_axes(axis, x.ndim, name)

    def build(a):
        a = cv(a, compute)
        if not axes:
            _, var = _moments(opset.unsqueeze(a, i64([0])).output(0), (0,), False, nan)
        else:
            _, var = _moments(a, axes, keepdims, nan)
        var = var.output(0) if hasattr(var, "output") else var
        if root:
            var = opset.sqrt(var).output(0)
        return cv(var, out)

    return run((name, axes, bool(keepdims), compute, out), build, x)


def var(x, axis=None, keepdims=False):
    return _moment("var", x, axis, keepdims, False, False)


def std(x, axis=None, keepdims=False):
    return _moment("std", x, axis, keepdims, False, True)


def nanvar(x, axis=None, keepdims=False):
    return _moment("nanvar", x, axis, keepdims, True, False)


def nanstd(x, axis=None, keepdims=False):
    return _moment("nanstd", x, axis, keepdims, True, True)


def _iota_along(a, axis):
    """int32 indices 0..n-1 along ``axis``, broadcastable against ``a``."""
    n = opset.gather(opset.shape_of(a, "i32"), i64([axis]), i64(0))
    start = opset.constant(np.int32(0))
    step = opset.constant(np.int32(1))
    iota = opset.range(start, opset.squeeze(n, i64([0])), step, "i32")
    shape = [1] * rank(a)
    shape[axis] = -1
    return reshape(iota.output(0), shape), n


def _arg_extreme(name, x, axis, keepdims, is_max, nan_skip):
    x = to_tensor(x)
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, name)
    ndim = x.ndim

    def build(a):
        if flatten:
            a = reshape(a, [-1])
        if a.get_element_type().is_real():
            a = cv(a, _dtypes.result_type(_dtype_name(a), "float32"))
            tiny = const_like(-np.finfo(np.float32).tiny, a)
            zero = const_like(0, a)
            neg_zero = opset.logical_and(
                opset.equal(a, zero), opset.less(opset.divide(const_like(1, a), a), zero)
            )
            a = opset.select(neg_zero, tiny, a).output(0)
        elif a.get_element_type().is_static() and _dtype_name(a) == "bool":
            a = cv(a, "int32")
        axes = i64([ax])
        iota, n = _iota_along(a, ax)
        reducer = opset.reduce_max if is_max else opset.reduce_min
        if is_float(a):
            nan = is_nan(a)
            fill = const_like(-math.inf if is_max else math.inf, a)
            cleaned = opset.select(nan, fill, a)
            best = reducer(cleaned, axes, True)
            hit = opset.equal(cleaned, best)
            any_nan = opset.reduce_logical_or(nan, axes, True)
            all_nan = opset.reduce_logical_and(nan, axes, True)
            if nan_skip:
                hit = opset.logical_and(hit, opset.logical_not(nan))
            else:
                hit = opset.select(any_nan, nan, hit)
        else:
            best = reducer(a, axes, True)
            hit = opset.equal(a, best)
        big = cv(n, "int32")
        candidates = opset.select(
            hit, opset.broadcast(iota, opset.shape_of(a)), opset.broadcast(big, opset.shape_of(a))
        )
        found = opset.reduce_min(candidates, axes, True)
        if nan_skip and is_float(a):
            found = opset.select(all_nan, opset.constant(np.int32(-1)), found)
        if flatten:
            found = reshape(found.output(0), [1] * ndim if keepdims else [])
        elif not keepdims:
            found = opset.squeeze(found, axes)
        return found

    return run((name, None if flatten else ax, bool(keepdims)), build, x)


def argmax(x, axis=None, keepdims=False):
    return _arg_extreme("argmax", x, axis, keepdims, True, False)


def argmin(x, axis=None, keepdims=False):
    return _arg_extreme("argmin", x, axis, keepdims, False, False)


def nanargmax(x, axis=None, keepdims=False):
    return _arg_extreme("nanargmax", x, axis, keepdims, True, True)


def nanargmin(x, axis=None, keepdims=False):
    return _arg_extreme("nanargmin", x, axis, keepdims, False, True)


def average(x, axis=None, weights=None):
    x = to_tensor(x)
    kinds = [x.dtype, float]
    inputs = [x]
    if weights is not None:
        weights = to_tensor(weights)
        kinds.append(weights.dtype)
        inputs.append(weights)
    dtype = _dtypes.result_type(*kinds)
    work = _compute(dtype)
    ndim = x.ndim
    axes = canonical_axes(axis, ndim, "average")

    def build(a, *w):
        a = cv(a, work)
        if not w:
            return (
                cv(opset.reduce_mean(a, i64(list(axes)), False).output(0), dtype)
                if axes
                else cv(a, dtype)
            )
        wt = cv(w[0], work)
        if rank(wt) == 1 and ndim > 1:
            shape = [1] * ndim
            shape[axes[0]] = -1
            wt = reshape(wt, shape)
        wt = opset.broadcast(wt, opset.shape_of(a)).output(0)
        total = opset.reduce_sum(opset.multiply(a, wt), i64(list(axes)), False)
        norm = opset.reduce_sum(wt, i64(list(axes)), False)
        return cv(opset.divide(total, norm).output(0), dtype)

    return run(("average", axes, dtype), build, *inputs)


def count_nonzero(x, axis=None):
    x = to_tensor(x)

    def prepare(a):
        return cv(cv(a, "bool"), "int32")

    return _reduce("count_nonzero", opset.reduce_sum, x, axis, False, prepare=prepare, out="int32")


def nansum(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = _dtypes.sum_dtype(x.dtype)
    work = "int32" if x.dtype == "bool" else dtype

    def prepare(a):
        return opset.select(is_nan(a), const_like(0, a), a).output(0) if is_float(a) else a

    return _reduce(
        "nansum", opset.reduce_sum, x, axis, keepdims, compute=work, out=dtype, prepare=prepare
    )


def nanprod(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = _dtypes.sum_dtype(x.dtype)
    work = "int32" if x.dtype == "bool" else dtype

    def prepare(a):
        return opset.select(is_nan(a), const_like(1, a), a).output(0) if is_float(a) else a

    return _reduce(
        "nanprod", opset.reduce_prod, x, axis, keepdims, compute=work, out=dtype, prepare=prepare
    )


def _nan_extreme(name, x, axis, keepdims, is_max):
    x = to_tensor(x)
    reducer = opset.reduce_max if is_max else opset.reduce_min

    def fn(a, axes, keep):
        if not is_float(a):
            return reducer(a, axes, keep)
        nan = is_nan(a)
        fill = const_like(-math.inf if is_max else math.inf, a)
        out = reducer(opset.select(nan, fill, a), axes, keep)
        all_nan = opset.reduce_logical_and(nan, axes, keep)
        return opset.select(all_nan, const_like(math.nan, a), out)

    if x.dtype == "bool":
        return max(x, axis, keepdims) if is_max else min(x, axis, keepdims)
    return _reduce(name, fn, x, axis, keepdims)


def nanmax(x, axis=None, keepdims=False):
    return _nan_extreme("nanmax", x, axis, keepdims, True)


def nanmin(x, axis=None, keepdims=False):
    return _nan_extreme("nanmin", x, axis, keepdims, False)


def nanmean(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = _dtypes.result_type(x.dtype, float)
    work = _compute(dtype)
    axes = canonical_axes(axis, x.ndim, "nanmean")

    def build(a):
        a = cv(a, work)
        if not axes:
            return cv(a, dtype)
        mean, _ = _moments(a, axes, keepdims, True)
        if not keepdims:
            mean = opset.squeeze(mean, i64(list(axes)))
        return cv(mean.output(0), dtype)

    return run(("nanmean", axes, bool(keepdims), dtype), build, x)


def _max_with(x, y):
    (a, b), dtype = promote(x, y)
    return run(("max_initial", dtype), lambda p, q: opset.maximum(cv(p, dtype), cv(q, dtype)), a, b)


def _min_with(x, y):
    (a, b), dtype = promote(x, y)
    return run(("min_initial", dtype), lambda p, q: opset.minimum(cv(p, dtype), cv(q, dtype)), a, b)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = to_tensor(y)
    dtype = _dtypes.result_type(y.dtype, float)
    ax = canonical_axis(axis, y.ndim, "trapezoid")
    inputs = [y] if x is None else [y, to_tensor(x)]
    dx = float(dx)

    def build(a, *xs):
        a = cv(a, _compute(dtype))
        nd = rank(a)
        n = static_shape(a)[ax]

        def part(node, start, stop):
            begin = [0] * nd
            end = [0] * nd
            begin[ax], end[ax] = start, stop
            mask = [1] * nd
            mask[ax] = 0
            return opset.strided_slice(node, i64(begin), i64(end), i64([1] * nd), mask, mask)

        avg = opset.multiply(opset.add(part(a, 1, n), part(a, 0, n - 1)), const_like(0.5, a))
        if xs:
            xx = cv(xs[0], _compute(dtype))
            if rank(xx) == 1 and nd > 1:
                shape = [1] * nd
                shape[ax] = -1
                xx = reshape(xx, shape)
                width = opset.subtract(part_1d(xx, ax, nd, 1, n), part_1d(xx, ax, nd, 0, n - 1))
            else:
                width = opset.subtract(part(xx, 1, n), part(xx, 0, n - 1))
            area = opset.multiply(avg, width)
        else:
            area = opset.multiply(avg, const_like(dx, a))
        return cv(opset.reduce_sum(area, i64([ax]), False).output(0), dtype)

    return run(("trapezoid", ax, dx, dtype), build, *inputs, static=True)


def part_1d(node, ax, nd, start, stop):
    begin = [0] * nd
    end = [0] * nd
    begin[ax], end[ax] = start, stop
    mask = [1] * nd
    mask[ax] = 0
    return opset.strided_slice(node, i64(begin), i64(end), i64([1] * nd), mask, mask)


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
