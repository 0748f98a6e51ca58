"""Order statistics: sorting, partitioning, medians, quantiles and percentiles."""

import math

import torch

from mb_backend_torch.numpy._common import (
    BOOL,
    canonicalize_axis,
    empty_axis,
    float_compute,
    floatx,
    t,
)


def _quantile(fn, x, q, axis, method, keepdims):
    x = t(x)
    compute, result = float_compute(x.dtype)
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
    if empty_axis(axis):
        return x
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def sort(x, axis=-1):
    x = t(x)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if x.dtype is BOOL:
        return torch.sort(x.to(torch.uint8), dim=axis, stable=True).values.to(BOOL)
    return torch.sort(x, dim=axis, stable=True).values


def argsort(x, axis=-1):
    x = t(x)
    if x.dtype is BOOL:
        x = x.to(torch.uint8)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    return torch.argsort(x, dim=axis, stable=True).to(torch.int32)


def argpartition(x, kth, axis=-1):
    # A full stable argsort is a valid partition (every element left of kth is
    # <= x[kth] and every element right of it is >=).
    return argsort(x, axis=axis)
