"""Convolutions, pooling, patches (unfold/fold) and pixel shuffles.

OpenVINO convolves channels-first data with (out, in, *spatial) filters; mb
kernels are (*spatial, in, out) as in Keras. Both layouts are handled inside one
compiled model (the transposes are fused by OpenVINO).
"""

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    const_like,
    cv,
    i64,
    opset,
    reshape,
    run,
    static_shape,
    transpose,
)
from mb_backend_openvino.nn._common import (
    auto_pad,
    check_padding,
    data_format,
    from_channels_first,
    per_axis,
    to_channels_first,
)
from mb_ops import numpy_shaped
from mb_ops.numpy_shaped import check_adaptive_rank, pair, transpose_paddings


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
    channels = numpy_shaped.channels_of(x.shape, fmt)
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
    return numpy_shaped.conv_groups("conv", channels, kernel.shape[-2])


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    return _conv(
        "conv", inputs, kernel, strides, padding, data_format, dilation_rate, _regular_groups
    )


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    fmt = _fmt(data_format)
    x, kernel = to_tensor(inputs), to_tensor(kernel)
    channels = numpy_shaped.channels_of(x.shape, fmt)
    numpy_shaped.check_depthwise_kernel(kernel.shape, channels)
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
    numpy_shaped.check_transpose_kernel(kernel.shape, numpy_shaped.channels_of(x.shape, fmt))
    strides = per_axis(strides, n, "strides")
    dilation = per_axis(dilation_rate, n, "dilation_rate")
    forward = transpose_paddings(kernel.shape[:n], strides, dilation, padding, output_padding)
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


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an (N, C, H, W) input as (N, C * kH * kW, L), like torch's Unfold."""
    x = to_tensor(x)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(pair, (kernel_size, dilation, padding, stride))
    n, c, h, w = x.shape
    hp, wp = h + 2 * ph, w + 2 * pw
    oh = (hp - (kh - 1) * dh - 1) // sh + 1
    ow = (wp - (kw - 1) * dw - 1) // sw + 1

    def build(a):
        a = opset.pad(a, i64([0, 0, ph, pw]), i64([0, 0, ph, pw]), "constant", const_like(0, a))
        taps = []
        for i in range(kh):
            for j in range(kw):
                begin = [0, 0, i * dh, j * dw]
                end = [n, c, i * dh + (oh - 1) * sh + 1, j * dw + (ow - 1) * sw + 1]
                part = opset.strided_slice(
                    a, i64(begin), i64(end), i64([1, 1, sh, sw]), [0] * 4, [0] * 4
                )
                taps.append(opset.unsqueeze(part, i64([2])))
        patches = opset.concat(taps, 2)  # (N, C, kh*kw, oh, ow)
        return reshape(patches.output(0), [n, c * kh * kw, oh * ow])

    return run(("unfold", (kh, kw, dh, dw, ph, pw, sh, sw)), build, x, static=True)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum (N, C * kH * kW, L) blocks back into (N, C, H, W), like torch's Fold."""
    x = to_tensor(x)
    (oh, ow), (kh, kw) = pair(output_size), pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = map(pair, (dilation, padding, stride))
    n = x.shape[0]
    c = x.shape[1] // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    full_h, full_w = oh + 2 * ph, ow + 2 * pw

    def build(a):
        blocks = reshape(a, [n, c, kh, kw, nh, nw])
        total = None
        for i in range(kh):
            for j in range(kw):
                block = opset.gather(opset.gather(blocks, i64(i), i64(2)), i64(j), i64(2))
                # Spread the block with the stride (zeros between taps), then place it.
                spread = _spread(block.output(0), sh, sw, nh, nw)
                rows = (nh - 1) * sh + 1
                cols = (nw - 1) * sw + 1
                top, left = i * dh, j * dw
                placed = opset.pad(
                    spread,
                    i64([0, 0, top, left]),
                    i64([0, 0, full_h - top - rows, full_w - left - cols]),
                    "constant",
                    const_like(0, a),
                )
                total = placed if total is None else opset.add(total, placed)
        return opset.slice(total, i64([ph, pw]), i64([ph + oh, pw + ow]), i64([1, 1]), i64([2, 3]))

    return run(("fold", (oh, ow, kh, kw, dh, dw, ph, pw, sh, sw)), build, x, static=True)


def _spread(node, sh, sw, nh, nw):
    """(N, C, nh, nw) -> (N, C, (nh-1)*sh+1, (nw-1)*sw+1) with zeros between the values."""
    if sh > 1:
        node = opset.unsqueeze(node, i64([3]))
        node = opset.pad(
            node, i64([0, 0, 0, 0, 0]), i64([0, 0, 0, sh - 1, 0]), "constant", const_like(0, node)
        )
        node = opset.reshape(node, i64([0, 0, -1, nw]), True)
        node = opset.slice(node, i64([0]), i64([(nh - 1) * sh + 1]), i64([1]), i64([2]))
    if sw > 1:
        rows = (nh - 1) * sh + 1
        node = opset.unsqueeze(node, i64([4]))
        node = opset.pad(
            node, i64([0, 0, 0, 0, 0]), i64([0, 0, 0, 0, sw - 1]), "constant", const_like(0, node)
        )
        node = opset.reshape(node, i64([0, 0, rows, -1]), True)
        node = opset.slice(node, i64([0]), i64([(nw - 1) * sw + 1]), i64([1]), i64([3]))
    return node.output(0) if hasattr(node, "output") else node


def depth_to_space(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = int(block_size)
    n, d1, d2, d3 = x.shape
    if data_format == "channels_last":
        h, w, c = d1, d2, d3
        steps = ([n, h, w, b, b, c // (b * b)], [0, 1, 3, 2, 4, 5], [n, h * b, w * b, c // (b * b)])
    else:
        c, h, w = d1, d2, d3
        steps = ([n, c // (b * b), b, b, h, w], [0, 1, 4, 2, 5, 3], [n, c // (b * b), h * b, w * b])
    return _shuffle("depth_to_space", x, steps)


def space_to_depth(x, block_size, data_format="channels_last"):
    x = to_tensor(x)
    b = int(block_size)
    n, d1, d2, d3 = x.shape
    if data_format == "channels_last":
        h, w, c = d1, d2, d3
        steps = ([n, h // b, b, w // b, b, c], [0, 1, 3, 2, 4, 5], [n, h // b, w // b, c * b * b])
    else:
        c, h, w = d1, d2, d3
        steps = ([n, c, h // b, b, w // b, b], [0, 1, 3, 5, 2, 4], [n, c * b * b, h // b, w // b])
    return _shuffle("space_to_depth", x, steps)


def _shuffle(name, x, steps):
    first, perm, last = steps

    def build(a):
        return reshape(transpose(reshape(a, first), perm), last)

    return run((name, tuple(first), tuple(perm), tuple(last)), build, x)


def _pool(name, inputs, pool_size, strides, padding, fmt):
    fmt = data_format(fmt)
    x = to_tensor(inputs)
    n = x.ndim - 2
    pool_size = per_axis(pool_size, n, "pool_size")
    strides = pool_size if strides is None else per_axis(strides, n, "strides")
    padding = check_padding(padding)
    dtype = x.dtype
    work = "float32" if dtype in ("float16", "bfloat16") else dtype
    zeros = [0] * n

    def build(a):
        a = to_channels_first(cv(a, work), fmt, n)
        if name == "max_pool":
            out = opset.max_pool(
                a, list(strides), [1] * n, zeros, zeros, list(pool_size), "floor", auto_pad(padding)
            ).output(0)
        else:
            # 'same' windows average only the real inputs (padding excluded), as Keras.
            out = opset.avg_pool(
                a,
                list(strides),
                zeros,
                zeros,
                list(pool_size),
                True,
                "floor",
                auto_pad(padding),
                dilations=[1] * n,
            ).output(0)
        return cv(from_channels_first(out, fmt, n), dtype)

    return run((name, fmt, tuple(pool_size), tuple(strides), padding, dtype), build, x)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("max_pool", inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("average_pool", inputs, pool_size, strides, padding, data_format)


def _adaptive(name, inputs, output_size, fmt):
    fmt = data_format(fmt)
    x = to_tensor(inputs)
    n = check_adaptive_rank(x.ndim)
    output_size = per_axis(output_size, n, "output_size")
    dtype = x.dtype
    work = "float32" if dtype in ("float16", "bfloat16") else dtype

    def build(a):
        a = to_channels_first(cv(a, work), fmt, n)
        if name == "adaptive_max_pool":
            out = opset.adaptive_max_pool(a, i64(list(output_size)), "i32").output(0)
        else:
            out = opset.adaptive_avg_pool(a, i64(list(output_size))).output(0)
        return cv(from_channels_first(out, fmt, n), dtype)

    return run((name, fmt, tuple(output_size), dtype), build, x)


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive("adaptive_average_pool", inputs, output_size, data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive("adaptive_max_pool", inputs, output_size, data_format)
