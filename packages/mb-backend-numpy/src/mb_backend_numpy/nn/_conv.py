"""Convolutions: regular, grouped, depthwise, separable and transposed, in N dimensions."""

import string

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.nn._windows import (
    data_format,
    from_channels_last,
    pad_spatial,
    paddings,
    per_axis,
    to_channels_last,
    windows,
)
from mb_backend_numpy.numpy._common import cast


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


def _check_channels(channels, kernel_in, name):
    if kernel_in == 0 or channels % kernel_in:
        raise ValueError(
            f"{name}: the input's channels ({channels}) must be a multiple of the kernel's "
            f"input channels ({kernel_in}, i.e. kernel.shape[-2])."
        )


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    fmt = _fmt(data_format)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    n = x.ndim - 2
    x = to_channels_last(x, fmt)
    _check_channels(x.shape[-1], kernel.shape[-2], "conv")
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
    channels = x.shape[-1] if fmt == "channels_last" else x.shape[1]
    if kernel.shape[-2] != channels:
        raise ValueError(
            f"depthwise_conv: kernel.shape[-2] ({kernel.shape[-2]}) must equal the input's "
            f"channels ({channels}). Received kernel shape {kernel.shape}."
        )
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


def _transpose_pads(kernel_size, stride, dilation, padding, output_padding):
    """Padding of the equivalent forward conv, as Keras computes it for JAX."""
    extent = (kernel_size - 1) * dilation + 1
    if padding.lower() == "valid":
        if output_padding is None:
            output_padding = max(extent, stride) - extent
        return extent - 1, extent - 1 + output_padding
    if padding.lower() != "same":
        raise ValueError(f"padding must be 'valid' or 'same'. Received: padding={padding!r}.")
    if output_padding is None:
        total = stride + extent - 2
    else:
        total = extent + extent % 2 - 2 + output_padding
    left = min(total // 2 + total % 2, extent - 1)
    return left, total - left


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
    if kernel.shape[-1] != x.shape[-1]:
        raise ValueError(
            f"conv_transpose: kernel.shape[-1] ({kernel.shape[-1]}) must equal the input's "
            f"channels ({x.shape[-1]}); the kernel is (*spatial, out_channels, in_channels)."
        )
    strides = per_axis(strides, n, "strides")
    dilation = per_axis(dilation_rate, n, "dilation_rate")
    if output_padding is None or isinstance(output_padding, int):
        output_padding = (output_padding,) * n
    pads = [
        _transpose_pads(k, s, d, padding, op)
        for k, s, d, op in zip(kernel.shape[:n], strides, dilation, output_padding, strict=False)
    ]
    dtype = result_type(x.dtype, kernel.dtype)
    compute = _compute_dtype(dtype)
    flipped = np.flip(kernel, axis=tuple(range(n))).swapaxes(-1, -2)
    out = _conv_channels_last(
        cast(x, compute), cast(flipped, compute), (1,) * n, pads, dilation, lhs_dilation=strides
    )
    return from_channels_last(cast(out, dtype), fmt)
