"""Scans along an axis: cumulative sums and products (and their NaN-ignoring forms) and
their inverse, ``diff``."""

import openvino as ov

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    canonical_axis,
    const_like,
    cv,
    i64,
    opset,
    rank,
    reshape,
    run,
    static_shape,
)
from mb_backend_openvino.numpy._common import is_float, is_nan
from mb_backend_openvino.numpy._shape import slice_axis


def _scan_dtype(x, dtype):
    dtype = _dtypes.result_type(dtype or x.dtype)
    return "int32" if dtype == "bool" else dtype


def _cumulative(name, x, axis, dtype, nan):
    x = to_tensor(x)
    dtype = _scan_dtype(x, dtype)
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, name)
    is_sum = name.endswith("sum")

    def build(a):
        if flatten:
            a = reshape(a, [-1])
        a = cv(a, dtype)
        if nan and is_float(a):
            a = opset.select(is_nan(a), const_like(0 if is_sum else 1, a), a).output(0)
        if is_sum:
            return opset.cumsum(a, i64(ax))
        return _cumprod_node(a, ax)

    return run((name, None if flatten else ax, dtype), build, x, static=not is_sum)


def _cumprod_node(a, axis):
    """Inclusive cumulative product by log-depth doubling (Hillis and Steele)."""
    n = static_shape(a)[axis]
    nd = rank(a)
    step = 1
    while step < (n or 0):
        pad_begin = [0] * nd
        pad_begin[axis] = step
        pads_end = [0] * nd
        shifted = opset.pad(a, i64(pad_begin), i64(pads_end), "constant", const_like(1, a))
        begin = [0] * nd
        end = [0] * nd
        end[axis] = n
        mask = [1] * nd
        mask[axis] = 0
        shifted = opset.strided_slice(shifted, i64(begin), i64(end), i64([1] * nd), mask, mask)
        a = opset.multiply(a, shifted).output(0)
        step *= 2
    return a


def cumsum(x, axis=None, dtype=None):
    return _cumulative("cumsum", x, axis, dtype, False)


def cumprod(x, axis=None, dtype=None):
    return _cumulative("cumprod", x, axis, dtype, False)


def nancumsum(x, axis=None, dtype=None):
    return _cumulative("nancumsum", x, axis, dtype, True)


def nancumprod(x, axis=None, dtype=None):
    return _cumulative("nancumprod", x, axis, dtype, True)


def diff(a, n=1, axis=-1):
    a = to_tensor(a)
    ax = canonical_axis(axis, a.ndim, "diff")

    def build(node):
        for _ in range(int(n)):
            later, earlier = slice_axis(node, ax, 1, None), slice_axis(node, ax, 0, -1)
            if node.get_element_type() == ov.Type.boolean:
                node = opset.not_equal(later, earlier).output(0)
            else:
                node = opset.subtract(later, earlier).output(0)
        return node

    return run(("diff", ax, int(n)), build, a)
