"""Convolutions, pooling, patches (unfold/fold) and pixel shuffles."""

import math
import string

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.nn._common import (
    data_format,
    from_channels_last,
    pad_spatial,
    paddings,
    per_axis,
    to_channels_last,
    windows,
)
from mb_backend_numpy.numpy._common import cast
from mb_ops import numpy_shaped
from mb_ops.numpy_shaped import check_adaptive_rank, pair, transpose_paddings


def _compute_dtype(dtype):
    return "float32" if dtype in ("float16", "bfloat16") else dtype


def _conv_channels_last(x, kernel, strides, pads, dilation, lhs_dilation=None):
    """``x``: (N, *S, C); ``kernel``: (*K, C // groups, O). Returns (N, *out, O)."""
    n = x.ndim - 2
    if lhs_dilation is not None and any(d > 1 for d in lhs_dilation):
        spread = list(x.shape)
        for i, d in enumerate(lhs_dilation):
            spread[i + 1] = (x.shape[i + 1] - 1) * d + 1
        holes = np.zeros(spread, dtype=x.dtype)
        holes[(slice(None), *[slice(None, None, d) for d in lhs_dilation])] = x
        x = holes
    x = pad_spatial(x, pads)
    view = windows(x, kernel.shape[:n], strides, dilation)  # (N, *out, C, *K)
    channels = x.shape[-1]
    group_in = kernel.shape[-2]
    groups = channels // group_in
    out_channels = kernel.shape[-1]
    view = view.reshape(*view.shape[: n + 1], groups, group_in, *kernel.shape[:n])
    kernel = kernel.reshape(*kernel.shape[:n], group_in, groups, out_channels // groups)
    letters = iter(string.ascii_letters)
    out_axes = "".join(next(letters) for _ in range(n))
    win_axes = "".join(next(letters) for _ in range(n))
    spec = f"N{out_axes}GC{win_axes},{win_axes}CGO->N{out_axes}GO"
    out = np.einsum(spec, view, kernel, optimize=True)
    return out.reshape(*out.shape[: n + 1], out_channels)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    fmt = _fmt(data_format)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    n = x.ndim - 2
    x = to_channels_last(x, fmt)
    numpy_shaped.conv_groups("conv", x.shape[-1], kernel.shape[-2])
    strides = per_axis(strides, n, "strides")
    dilation = per_axis(dilation_rate, n, "dilation_rate")
    dtype = result_type(x.dtype, kernel.dtype)
    compute = _compute_dtype(dtype)
    extent = [(k - 1) * d + 1 for k, d in zip(kernel.shape[:n], dilation, strict=False)]
    pads = paddings(x.shape[1:-1], extent, strides, padding)
    out = _conv_channels_last(cast(x, compute), cast(kernel, compute), strides, pads, dilation)
    return from_channels_last(cast(out, dtype), fmt)


def _fmt(value):
    return data_format(value)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    fmt = _fmt(data_format)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    channels = numpy_shaped.channels_of(x.shape, fmt)
    numpy_shaped.check_depthwise_kernel(kernel.shape, channels)
    grouped = kernel.reshape(*kernel.shape[:-2], 1, channels * kernel.shape[-1])
    return conv(x, grouped, strides, padding, fmt, dilation_rate)


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    fmt = _fmt(data_format)
    depthwise = depthwise_conv(inputs, depthwise_kernel, strides, padding, fmt, dilation_rate)
    return conv(depthwise, pointwise_kernel, 1, "valid", fmt, dilation_rate)


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    fmt = _fmt(data_format)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    n = x.ndim - 2
    x = to_channels_last(x, fmt)
    numpy_shaped.check_transpose_kernel(kernel.shape, x.shape[-1])
    strides = per_axis(strides, n, "strides")
    dilation = per_axis(dilation_rate, n, "dilation_rate")
    pads = transpose_paddings(kernel.shape[:n], strides, dilation, padding, output_padding)
    dtype = result_type(x.dtype, kernel.dtype)
    compute = _compute_dtype(dtype)
    flipped = np.flip(kernel, axis=tuple(range(n))).swapaxes(-1, -2)
    out = _conv_channels_last(
        cast(x, compute), cast(flipped, compute), (1,) * n, pads, dilation, lhs_dilation=strides
    )
    return from_channels_last(cast(out, dtype), fmt)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an (N, C, H, W) input as (N, C * kH * kW, L), like torch's Unfold."""
    x = to_tensor(x)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(pair, (kernel_size, dilation, padding, stride))
    n, c = x.shape[:2]
    x = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh = (x.shape[2] - (kh - 1) * dh - 1) // sh + 1
    ow = (x.shape[3] - (kw - 1) * dw - 1) // sw + 1
    patches = np.empty((n, c, kh, kw, oh, ow), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + (oh - 1) * sh + 1, sh)
            cols = slice(j * dw, j * dw + (ow - 1) * sw + 1, sw)
            patches[:, :, i, j] = x[:, :, rows, cols]
    return patches.reshape(n, c * kh * kw, oh * ow)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum (N, C * kH * kW, L) blocks back into (N, C, H, W), like torch's Fold."""
    x = to_tensor(x)
    (oh, ow), (kh, kw) = pair(output_size), pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = map(pair, (dilation, padding, stride))
    n = x.shape[0]
    c = x.shape[1] // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    blocks = x.reshape(n, c, kh, kw, nh, nw)
    out = np.zeros((n, c, oh + 2 * ph, ow + 2 * pw), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + (nh - 1) * sh + 1, sh)
            cols = slice(j * dw, j * dw + (nw - 1) * sw + 1, sw)
            out[:, :, rows, cols] += blocks[:, :, i, j]
    return out[:, :, ph : ph + oh, pw : pw + ow]


def depth_to_space(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = block_size
    if data_format == "channels_last":
        n, h, w, c = x.shape
        x = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
        return x.reshape(n, h * b, w * b, c // (b * b))
    n, c, h, w = x.shape
    x = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return x.reshape(n, c // (b * b), h * b, w * b)


def space_to_depth(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = block_size
    if data_format == "channels_last":
        n, h, w, c = x.shape
        x = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
        return x.reshape(n, h // b, w // b, c * b * b)
    n, c, h, w = x.shape
    x = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 1, 3, 5, 2, 4)
    return x.reshape(n, c * b * b, h // b, w // b)


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
    n = check_adaptive_rank(x.ndim)
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
