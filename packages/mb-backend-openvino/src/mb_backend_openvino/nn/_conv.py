"""Convolutions on OpenVINO: regular, grouped, depthwise, separable and transposed.

OpenVINO convolves channels-first data with (out, in, *spatial) filters; mb
kernels are (*spatial, in, out) as in Keras. Both layouts are handled inside one
compiled model (the transposes are fused by OpenVINO).
"""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import cv, i64, opset, run, static_shape
from mb_backend_openvino.nn._layout import (
    auto_pad,
    check_padding,
    data_format,
    from_channels_first,
    per_axis,
    to_channels_first,
)


def _compute(dtype):
    return "float32" if dtype in ("float16", "bfloat16") else dtype


def _conv_node(x, kernel, n, strides, dilation, padding, groups):
    """``x``: (N, C, *S); ``kernel``: (*K, C // groups, O) as in Keras."""
    order = [n + 1, n, *range(n)]  # -> (O, I, *K)
    filters = opset.transpose(kernel, i64(order)).output(0)
    zeros = [0] * n
    pad = auto_pad(padding)
    if groups == 1:
        return opset.convolution(x, filters, list(strides), zeros, zeros, list(dilation), pad)
    out_channels, per_group_in, *window = static_shape(filters)
    grouped = opset.reshape(
        filters, i64([groups, out_channels // groups, per_group_in, *window]), False
    )
    return opset.group_convolution(x, grouped, list(strides), zeros, zeros, list(dilation), pad)


def _conv(name, inputs, kernel, strides, padding, fmt, dilation_rate, groups_of):
    fmt = data_format(fmt)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    n = x.ndim - 2
    strides = per_axis(strides, n, "strides")
    dilation = per_axis(dilation_rate, n, "dilation_rate")
    padding = check_padding(padding)
    channels = x.shape[-1] if fmt == "channels_last" else x.shape[1]
    groups = groups_of(channels, kernel)
    dtype = _dtypes.result_type(x.dtype, kernel.dtype)
    work = _compute(dtype)

    def build(a, k):
        a = to_channels_first(cv(a, work), fmt, n)
        out = _conv_node(a, cv(k, work), n, strides, dilation, padding, groups)
        return cv(from_channels_first(out.output(0), fmt, n), dtype)

    key = (name, fmt, tuple(strides), tuple(dilation), padding, groups, dtype)
    return run(key, build, x, kernel, static=(1,))


def _regular_groups(channels, kernel):
    kernel_in = kernel.shape[-2]
    if kernel_in == 0 or channels % kernel_in:
        raise ValueError(
            f"conv: the input's channels ({channels}) must be a multiple of the kernel's "
            f"input channels ({kernel_in}, i.e. kernel.shape[-2])."
        )
    return channels // kernel_in


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    return _conv(
        "conv", inputs, kernel, strides, padding, data_format, dilation_rate, _regular_groups
    )


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    fmt = _fmt(data_format)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    channels = x.shape[-1] if fmt == "channels_last" else x.shape[1]
    if kernel.shape[-2] != channels:
        raise ValueError(
            f"depthwise_conv: kernel.shape[-2] ({kernel.shape[-2]}) must equal the input's "
            f"channels ({channels}). Received kernel shape {kernel.shape}."
        )
    n = kernel.ndim - 2
    grouped = _reshape(kernel, (*kernel.shape[:n], 1, channels * kernel.shape[-1]))
    return _conv("depthwise_conv", x, grouped, strides, padding, fmt, dilation_rate, lambda c, k: c)


def _fmt(value):
    return data_format(value)


def _reshape(x, shape):
    shape = tuple(int(d) for d in shape)
    return run(("reshape", shape), lambda a: opset.reshape(a, i64(list(shape)), False), x)


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
    """Padding of the equivalent forward conv over the stride-dilated input (Keras's rule)."""
    extent = (kernel_size - 1) * dilation + 1
    if padding == "valid":
        if output_padding is None:
            output_padding = max(extent, stride) - extent
        return extent - 1, extent - 1 + output_padding
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
    channels = x.shape[-1] if fmt == "channels_last" else x.shape[1]
    if kernel.shape[-1] != channels:
        raise ValueError(
            f"conv_transpose: kernel.shape[-1] ({kernel.shape[-1]}) must equal the input's "
            f"channels ({channels}); the kernel is (*spatial, out_channels, in_channels)."
        )
    padding = check_padding(padding)
    strides = per_axis(strides, n, "strides")
    dilation = per_axis(dilation_rate, n, "dilation_rate")
    if output_padding is None or isinstance(output_padding, int | np.integer):
        output_padding = (output_padding,) * n
    forward = [
        _transpose_pads(k, s, d, padding, op)
        for k, s, d, op in zip(kernel.shape[:n], strides, dilation, output_padding, strict=True)
    ]
    # ConvolutionBackpropData crops (extent - 1 - pad) per side of the full transposed output.
    begin, end, extra = [], [], []
    for (left, right), k, d in zip(forward, kernel.shape[:n], dilation, strict=True):
        extent = (k - 1) * d + 1
        begin.append(extent - 1 - left)
        crop = extent - 1 - right
        end.append(max(crop, 0))
        extra.append(max(-crop, 0))
    dtype = _dtypes.result_type(x.dtype, kernel.dtype)
    work = _compute(dtype)

    def build(a, k):
        a = to_channels_first(cv(a, work), fmt, n)
        filters = opset.transpose(cv(k, work), i64([n + 1, n, *list(range(n))]))  # (in, out, *K)
        out = opset.convolution_backprop_data(
            a,
            filters,
            list(strides),
            pads_begin=begin,
            pads_end=end,
            dilations=list(dilation),
            output_padding=extra,
        )
        return cv(from_channels_first(out.output(0), fmt, n), dtype)

    key = (
        "conv_transpose",
        fmt,
        tuple(strides),
        tuple(dilation),
        tuple(begin),
        tuple(end),
        tuple(extra),
        dtype,
    )
    return run(key, build, x, kernel, static=(1,))
