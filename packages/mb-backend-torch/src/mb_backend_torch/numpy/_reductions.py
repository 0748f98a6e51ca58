"""Reductions over axes: sums, products, means, moments, extremes, arg-extremes, counts,
``average``, ``trapezoid``, ``bincount`` and ``histogram``."""

import torch

from mb_backend_torch._dtypes import _result_many, to_torch_dtype
from mb_backend_torch.numpy._common import (
    BOOL,
    axis_arg,
    canonicalize_axis,
    config,
    empty_axis,
    float_compute,
    floatx,
    nan_fill,
    sum_dtype,
    t,
)


def _stack_if_sequence(x):
    if isinstance(x, list | tuple):
        return torch.stack([t(v) for v in x])
    return t(x)


def sum(x, axis=None, keepdims=False):
    x = _stack_if_sequence(x)
    if empty_axis(axis):
        return x.to(sum_dtype(x.dtype))
    dtype = sum_dtype(x.dtype)
    if axis is None:
        out = torch.sum(x, dtype=dtype)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return torch.sum(x, dim=axis_arg(axis), keepdim=keepdims, dtype=dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = t(x)
    dtype = to_torch_dtype(dtype) if dtype is not None else sum_dtype(x.dtype)
    compute = torch.float32 if dtype is torch.float16 and x.device.type == "cpu" else dtype
    if axis is None:
        out = torch.prod(x, dtype=compute)
        if keepdims:
            out = out.reshape((1,) * x.ndim)
        return out.to(dtype)
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = sorted((canonicalize_axis(a, x.ndim) for a in axes), reverse=True)
    out = x
    for a in axes:
        out = torch.prod(out, dim=a, keepdim=keepdims, dtype=compute)
    return out.to(dtype)


def _float_mean(fn, x, axis, keepdims):
    """``fn`` (``torch.mean``/``torch.nanmean``) over ``axis`` (None: all), computed in
    ``x``'s float compute dtype and returned in its result dtype."""
    compute, result = float_compute(x.dtype)
    if x.dtype is not compute:
        x = x.to(compute)
    if axis is None:
        out = fn(x)
        if keepdims:
            out = out.reshape((1,) * x.ndim)
    else:
        out = fn(x, dim=axis_arg(axis), keepdim=keepdims)
    return out if out.dtype is result else out.to(result)


def mean(x, axis=None, keepdims=False):
    x = _stack_if_sequence(x)
    if empty_axis(axis):
        return x
    return _float_mean(torch.mean, x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    x = t(x)
    compute, result = float_compute(x.dtype)
    if empty_axis(axis):
        return torch.zeros_like(x, dtype=result)
    x = x.to(compute)
    if x.dtype.is_complex:
        centered = x - torch.mean(x, dim=axis_arg(axis), keepdim=True)
        out = torch.mean((centered * centered.conj()).real, dim=axis_arg(axis), keepdim=keepdims)
        return out
    out = torch.var(x, dim=axis_arg(axis), keepdim=keepdims, correction=0)
    return out.to(result)


def std(x, axis=None, keepdims=False):
    return torch.sqrt(var(x, axis=axis, keepdims=keepdims))


def _extreme(reduce, x, axis, keepdims, initial, combine, name):
    x = t(x)
    if x.numel() == 0:
        if initial is None:
            raise ValueError(
                f"Cannot compute the {name} of an empty tensor (shape {tuple(x.shape)}) "
                "without an initial value. Pass initial=..."
            )
        shape = list(x.shape)
        if axis is None:
            shape = [1] * x.ndim if keepdims else []
        else:
            axes = [axis] if isinstance(axis, int) else list(axis)
            for a in sorted((canonicalize_axis(a, x.ndim) for a in axes), reverse=True):
                if keepdims:
                    shape[a] = 1
                else:
                    del shape[a]
        return torch.full(shape, initial, dtype=x.dtype, device=x.device)
    if empty_axis(axis):
        out = x
    elif axis is None:
        out = reduce(x)
        if keepdims:
            out = out.reshape((1,) * x.ndim)
    else:
        out = reduce(x, dim=axis_arg(axis), keepdim=keepdims)
    if initial is not None:
        out = combine(out, torch.tensor(initial, dtype=out.dtype, device=out.device))
    return out


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amax, x, axis, keepdims, initial, torch.maximum, "max")


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amin, x, axis, keepdims, initial, torch.minimum, "min")


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def _truth_reduction(fn):
    """``fn`` (``torch.all``/``torch.any``) over ``axis`` (None: every axis; an empty
    tuple: none, each element as a bool)."""

    def reduction(x, axis=None, keepdims=False):
        x = t(x)
        if empty_axis(axis):
            return x.to(BOOL)
        if axis is None:
            out = fn(x)
            return out.reshape((1,) * x.ndim) if keepdims else out
        return fn(x, dim=axis_arg(axis), keepdim=keepdims)

    reduction.__name__ = reduction.__qualname__ = fn.__name__
    return reduction


all = _truth_reduction(torch.all)
any = _truth_reduction(torch.any)


def _arg(fn, x, axis, keepdims):
    x = t(x)
    if x.dtype is BOOL:
        x = x.to(torch.uint8)
    if axis is None:
        out = fn(x.reshape(-1))
        if keepdims:
            out = out.reshape((1,) * x.ndim)
    else:
        out = fn(x, dim=axis, keepdim=keepdims)
    return out.to(torch.int32)


def argmax(x, axis=None, keepdims=False):
    return _arg(torch.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg(torch.argmin, x, axis, keepdims)


def count_nonzero(x, axis=None):
    x = t(x)
    if empty_axis(axis):
        return torch.ne(x, 0).to(torch.int32)
    return torch.count_nonzero(x, dim=axis_arg(axis)).to(torch.int32)


def average(x, axis=None, weights=None):
    x = t(x)
    kinds = [x.dtype, float]
    if weights is not None:
        weights = t(weights)
        kinds.append(weights.dtype)
    dtype = _result_many(tuple(kinds), config.floatx())
    x = x.to(dtype)
    if empty_axis(axis):
        return x
    if weights is None:
        return torch.mean(x) if axis is None else torch.mean(x, dim=axis)
    weights = weights.to(dtype)
    if axis is None:
        return torch.sum(x * weights) / torch.sum(weights)
    if weights.ndim == 1 and x.ndim > 1:
        shape = [1] * x.ndim
        shape[axis] = -1
        weights = weights.reshape(shape)
    return torch.sum(x * weights, dim=axis) / torch.sum(weights * torch.ones_like(x), dim=axis)


def ptp(x, axis=None, keepdims=False):
    x = t(x)
    if empty_axis(axis):
        return torch.zeros_like(x)
    return max(x, axis=axis, keepdims=keepdims) - min(x, axis=axis, keepdims=keepdims)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("bincount(sparse=True) is not supported on the torch backend.")
    x = t(x).to(torch.int64)
    if weights is not None:
        weights = t(weights)
        dtype = _result_many((torch.int32, weights.dtype), config.floatx())
    else:
        dtype = torch.int32
    if x.ndim == 2:
        length = _larger(minlength, int(x.max()) + 1 if x.numel() else 0)
        rows = x.shape[0]
        offsets = (torch.arange(rows, device=x.device) * length)[:, None]
        flat = (x + offsets).reshape(-1)
        w = weights.reshape(-1) if weights is not None else None
        out = torch.bincount(flat, weights=w, minlength=rows * length)
        return out.reshape(rows, length).to(dtype)
    return torch.bincount(x, weights=weights, minlength=minlength).to(dtype)


def _larger(a, b):
    return a if a > b else b


def histogram(x, bins=10, range=None):
    x = t(x)
    if range is None:
        range = (float(x.min()), float(x.max()))
    hist = torch.histc(x.to(torch.float32), bins=bins, min=range[0], max=range[1])
    edges = torch.linspace(range[0], range[1], bins + 1, device=x.device)
    return hist.to(x.dtype if x.dtype.is_floating_point else floatx()), edges.to(
        x.dtype if x.dtype.is_floating_point else floatx()
    )


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = t(y)
    if not (y.dtype.is_floating_point or y.dtype.is_complex):
        y = y.to(_result_many((y.dtype, float), config.floatx()))
    if x is not None:
        x = t(x).to(y.dtype)
        return torch.trapezoid(y, x=x, dim=axis)
    return torch.trapezoid(y, dx=float(dx), dim=axis)


def nansum(x, axis=None, keepdims=False):
    x = t(x)
    dtype = sum_dtype(x.dtype)
    return sum(nan_fill(x, 0), axis=axis, keepdims=keepdims).to(dtype)


def nanprod(x, axis=None, keepdims=False):
    x = t(x)
    if empty_axis(axis):
        return nan_fill(x, 1)
    return prod(nan_fill(x, 1), axis=axis, keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    x = t(x)
    if empty_axis(axis):
        return x
    return _float_mean(torch.nanmean, x, axis, keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = t(x)
    compute, result = float_compute(x.dtype)
    x = x.to(compute)
    if empty_axis(axis):
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
    if empty_axis(axis):
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
