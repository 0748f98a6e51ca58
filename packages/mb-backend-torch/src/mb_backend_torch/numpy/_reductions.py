"""Reductions and scans: sum, mean, var, max, arg-reductions, cumulative ops, quantiles."""

import math

import torch

from mb_backend_torch._dtypes import _result_many, to_torch_dtype
from mb_backend_torch.numpy._helpers import (
    axis_arg,
    canonicalize_axis,
    config,
    floatx,
    t,
)

_BOOL = torch.bool
_WIDEN_TO_INT32 = frozenset({torch.bool, torch.uint8, torch.int8, torch.int16})


def _empty_axis(axis):
    return isinstance(axis, tuple | list) and len(axis) == 0


def _sum_dtype(dtype):
    return torch.int32 if dtype in _WIDEN_TO_INT32 else dtype


def _float_compute(dtype):
    # (compute dtype, result dtype) of a float-valued reduction such as mean.
    if dtype.is_floating_point or dtype.is_complex:
        if dtype in (torch.float16, torch.bfloat16):
            return torch.float32, dtype
        return dtype, dtype
    result = _result_many((dtype, float), config.floatx())
    return _result_many((dtype, torch.float32), config.floatx()), result


def _stack_if_sequence(x):
    if isinstance(x, list | tuple):
        return torch.stack([t(v) for v in x])
    return t(x)


def sum(x, axis=None, keepdims=False):
    x = _stack_if_sequence(x)
    if _empty_axis(axis):
        return x.to(_sum_dtype(x.dtype))
    dtype = _sum_dtype(x.dtype)
    if axis is None:
        out = torch.sum(x, dtype=dtype)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return torch.sum(x, dim=axis_arg(axis), keepdim=keepdims, dtype=dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = t(x)
    dtype = to_torch_dtype(dtype) if dtype is not None else _sum_dtype(x.dtype)
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


def mean(x, axis=None, keepdims=False):
    x = _stack_if_sequence(x)
    if _empty_axis(axis):
        return x
    compute, result = _float_compute(x.dtype)
    if x.dtype is not compute:
        x = x.to(compute)
    if axis is None:
        out = torch.mean(x)
        if keepdims:
            out = out.reshape((1,) * x.ndim)
    else:
        out = torch.mean(x, dim=axis_arg(axis), keepdim=keepdims)
    return out if out.dtype is result else out.to(result)


def var(x, axis=None, keepdims=False):
    x = t(x)
    compute, result = _float_compute(x.dtype)
    if _empty_axis(axis):
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
    if _empty_axis(axis):
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


def all(x, axis=None, keepdims=False):
    x = t(x)
    if _empty_axis(axis):
        return x.to(_BOOL)
    if axis is None:
        out = torch.all(x)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return torch.all(x, dim=axis_arg(axis), keepdim=keepdims)


def any(x, axis=None, keepdims=False):
    x = t(x)
    if _empty_axis(axis):
        return x.to(_BOOL)
    if axis is None:
        out = torch.any(x)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return torch.any(x, dim=axis_arg(axis), keepdim=keepdims)


def _arg(fn, x, axis, keepdims):
    x = t(x)
    if x.dtype is _BOOL:
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
    if _empty_axis(axis):
        return torch.ne(x, 0).to(torch.int32)
    return torch.count_nonzero(x, dim=axis_arg(axis)).to(torch.int32)


def _cumulative(fn, x, axis, dtype):
    x = t(x)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    dtype = to_torch_dtype(dtype) if dtype is not None else x.dtype
    if dtype is _BOOL:
        dtype = torch.int32
    if dtype is torch.float16 and x.device.type == "cpu":
        return fn(x, dim=axis, dtype=torch.float32).to(torch.float16)
    return fn(x, dim=axis, dtype=dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(torch.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(torch.cumprod, x, axis, dtype)


def _quantile(fn, x, q, axis, method, keepdims):
    x = t(x)
    compute, result = _float_compute(x.dtype)
    x = x.to(compute)
    q = t(q).to(compute)
    if axis is None:
        y = x.reshape(-1)
        axes = None
    else:
        axes = [axis] if isinstance(axis, int) else list(axis)
        axes = sorted(canonicalize_axis(a, x.ndim) for a in axes)
        others = [d for d in range(x.ndim) if d not in axes]
        y = x.permute(others + axes).reshape(
            [x.shape[d] for d in others] + [math.prod(x.shape[d] for d in axes)]
        )
    y = fn(y, q, dim=-1, interpolation=method)
    if keepdims:
        lead = 1 if q.ndim > 0 else 0
        if axes is None:
            y = y.reshape(y.shape[:lead] + (1,) * x.ndim)
        else:
            for a in axes:
                y = y.unsqueeze(a + lead)
    return y.to(result)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(torch.quantile, x, q, axis, method, keepdims)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(torch.nanquantile, x, q, axis, method, keepdims)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    q = t(q).to(floatx()) / 100.0
    return quantile(x, q, axis=axis, method=method, keepdims=keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    q = t(q).to(floatx()) / 100.0
    return nanquantile(x, q, axis=axis, method=method, keepdims=keepdims)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanmedian(x, axis=None, keepdims=False):
    x = t(x)
    if _empty_axis(axis):
        return x
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def average(x, axis=None, weights=None):
    x = t(x)
    kinds = [x.dtype, float]
    if weights is not None:
        weights = t(weights)
        kinds.append(weights.dtype)
    dtype = _result_many(tuple(kinds), config.floatx())
    x = x.to(dtype)
    if _empty_axis(axis):
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
    if _empty_axis(axis):
        return torch.zeros_like(x)
    return max(x, axis=axis, keepdims=keepdims) - min(x, axis=axis, keepdims=keepdims)


def trace(x, offset=0, axis1=0, axis2=1):
    x = t(x)
    dtype = _sum_dtype(x.dtype)
    return torch.sum(torch.diagonal(x, offset, axis1, axis2), dim=-1, dtype=dtype)


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
