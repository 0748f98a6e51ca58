"""Reductions that ignore NaNs (``nansum``, ``nanmean``, ``nanargmax``, …)."""

import torch

from mb_backend_torch.numpy._helpers import axis_arg, t
from mb_backend_torch.numpy._reductions import (
    _empty_axis,
    _float_compute,
    _sum_dtype,
    argmax,
    argmin,
    cumprod,
    cumsum,
    max,
    min,
    prod,
    sum,
)


def nan_fill(x, value):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        return x
    return torch.where(torch.isnan(x), torch.full_like(x, value), x)


def nansum(x, axis=None, keepdims=False):
    x = t(x)
    dtype = _sum_dtype(x.dtype)
    return sum(nan_fill(x, 0), axis=axis, keepdims=keepdims).to(dtype)


def nanprod(x, axis=None, keepdims=False):
    x = t(x)
    if _empty_axis(axis):
        return nan_fill(x, 1)
    return prod(nan_fill(x, 1), axis=axis, keepdims=keepdims)


def nancumsum(x, axis=None, dtype=None):
    return cumsum(nan_fill(t(x), 0), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    return cumprod(nan_fill(t(x), 1), axis=axis, dtype=dtype)


def nanmean(x, axis=None, keepdims=False):
    x = t(x)
    if _empty_axis(axis):
        return x
    compute, result = _float_compute(x.dtype)
    x = x.to(compute)
    if axis is None:
        out = torch.nanmean(x)
        if keepdims:
            out = out.reshape((1,) * x.ndim)
    else:
        out = torch.nanmean(x, dim=axis_arg(axis), keepdim=keepdims)
    return out.to(result)


def nanvar(x, axis=None, keepdims=False):
    x = t(x)
    compute, result = _float_compute(x.dtype)
    x = x.to(compute)
    if _empty_axis(axis):
        return torch.where(torch.isnan(x), x, torch.zeros_like(x)).to(result)
    dim = axis_arg(axis)
    valid = ~torch.isnan(x)
    mean = torch.nanmean(x, dim=dim, keepdim=True)
    centered = torch.where(valid, x - mean, torch.zeros_like(x))
    if centered.dtype.is_complex:
        squared = (centered * centered.conj()).real
    else:
        squared = centered.square()
    if dim is None:
        total = squared.sum()
        count = valid.sum()
        out = total / count
        if keepdims:
            out = out.reshape((1,) * x.ndim)
    else:
        out = squared.sum(dim=dim, keepdim=keepdims) / valid.sum(dim=dim, keepdim=keepdims)
    return out.to(result)


def nanstd(x, axis=None, keepdims=False):
    return torch.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


def _nan_extreme(reduce, fill, x, axis, keepdims):
    x = t(x)
    if not x.dtype.is_floating_point:
        return reduce(x, axis=axis, keepdims=keepdims)
    if _empty_axis(axis):
        return x
    out = reduce(nan_fill(x, fill), axis=axis, keepdims=keepdims)
    all_nan = torch.isnan(x)
    all_nan = all_nan.all() if axis is None else all_nan.all(dim=axis_arg(axis), keepdim=keepdims)
    if axis is None and keepdims:
        all_nan = all_nan.reshape((1,) * x.ndim)
    return torch.where(all_nan, torch.full_like(out, float("nan")), out)


def nanmax(x, axis=None, keepdims=False):
    return _nan_extreme(max, float("-inf"), x, axis, keepdims)


def nanmin(x, axis=None, keepdims=False):
    return _nan_extreme(min, float("inf"), x, axis, keepdims)


def _nan_arg(arg, fill, x, axis, keepdims):
    x = t(x)
    if not x.dtype.is_floating_point:
        return arg(x, axis=axis, keepdims=keepdims)
    out = arg(nan_fill(x, fill), axis=axis, keepdims=keepdims)
    nan = torch.isnan(x)
    if axis is None:
        all_nan = nan.all()
        if keepdims:
            all_nan = all_nan.reshape((1,) * x.ndim)
    else:
        all_nan = nan.all(dim=axis, keepdim=keepdims)
    return torch.where(all_nan, torch.full_like(out, -1), out)


def nanargmax(x, axis=None, keepdims=False):
    return _nan_arg(argmax, float("-inf"), x, axis, keepdims)


def nanargmin(x, axis=None, keepdims=False):
    return _nan_arg(argmin, float("inf"), x, axis, keepdims)
