"""Pooling: max and average over windows, and adaptive pooling to a fixed output size."""

import math

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy.nn._windows import (
    data_format,
    from_channels_last,
    pad_spatial,
    paddings,
    per_axis,
    to_channels_last,
    windows,
)


def _prepare(inputs, pool_size, strides, padding, fmt):
    x = to_channels_last(to_tensor(inputs), fmt)
    n = x.ndim - 2
    pool_size = per_axis(pool_size, n, "pool_size")
    strides = pool_size if strides is None else per_axis(strides, n, "strides")
    pads = paddings(x.shape[1:-1], pool_size, strides, padding)
    return x, n, pool_size, strides, pads


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    fmt = _data_format(data_format)
    x, n, pool_size, strides, pads = _prepare(inputs, pool_size, strides, padding, fmt)
    if x.dtype.kind == "f" or x.dtype.kind == "V" or x.dtype.name == "bfloat16":
        low = -np.inf
    else:
        low = np.iinfo(x.dtype).min if x.dtype.kind in "iu" else False
    view = windows(pad_spatial(x, pads, low), pool_size, strides)
    out = np.max(view, axis=tuple(range(-n, 0)))
    return from_channels_last(out, fmt)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    fmt = _data_format(data_format)
    x, n, pool_size, strides, pads = _prepare(inputs, pool_size, strides, padding, fmt)
    axes = tuple(range(-n, 0))
    compute = "float32" if x.dtype.itemsize < 4 and x.dtype.kind != "c" else x.dtype
    sums = np.sum(windows(pad_spatial(x, pads), pool_size, strides), axis=axes, dtype=compute)
    if padding.lower() == "valid":
        out = sums / math.prod(pool_size)
    else:
        # Padded positions do not count: divide by the number of real inputs per window.
        ones = np.ones((1, *x.shape[1:-1], 1), dtype=compute)
        counts = np.sum(windows(pad_spatial(ones, pads), pool_size, strides), axis=axes)
        out = sums / counts
    return from_channels_last(out.astype(x.dtype, copy=False), fmt)


def _data_format(value):
    return data_format(value)


def _adaptive_bounds(size, out):
    """PyTorch's adaptive windows: [floor(i*size/out), ceil((i+1)*size/out))."""
    starts = [(i * size) // out for i in range(out)]
    ends = [-(-((i + 1) * size) // out) for i in range(out)]
    return starts, ends


def _adaptive(inputs, output_size, reduce, fmt):
    x = to_channels_last(to_tensor(inputs), fmt)
    n = x.ndim - 2
    if n not in (1, 2, 3):
        raise ValueError(
            f"Adaptive pooling supports 1D, 2D and 3D inputs (rank 3 to 5). "
            f"Received an input of rank {x.ndim}."
        )
    output_size = per_axis(output_size, n, "output_size")
    for axis, out in enumerate(output_size, start=1):
        starts, ends = _adaptive_bounds(x.shape[axis], out)
        parts = [
            reduce(np.take(x, range(s, e), axis=axis), axis=axis, keepdims=True)
            for s, e in zip(starts, ends, strict=False)
        ]
        x = np.concatenate(parts, axis=axis).astype(x.dtype, copy=False)
    return from_channels_last(x, fmt)


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, np.mean, _data_format(data_format))


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, np.max, _data_format(data_format))
