"""Convolutions, pooling, patches (unfold/fold) and pixel shuffles.

torch is channels-first; channels-last inputs are permuted to NC... views
(which torch treats as channels_last memory format, so no copy is made) and
the result is permuted back. Kernels use Keras's layout ``(*spatial, in, out)``.
"""

import math

import torch
import torch.nn.functional as tnn

from mb_backend_torch.numpy._common import t
from mb_ops import config

_CONV = {1: tnn.conv1d, 2: tnn.conv2d, 3: tnn.conv3d}
_CONV_T = {1: tnn.conv_transpose1d, 2: tnn.conv_transpose2d, 3: tnn.conv_transpose3d}
_MAX_POOL = {1: tnn.max_pool1d, 2: tnn.max_pool2d, 3: tnn.max_pool3d}
_AVG_POOL = {1: tnn.avg_pool1d, 2: tnn.avg_pool2d, 3: tnn.avg_pool3d}
_ADAPTIVE_AVG = {1: tnn.adaptive_avg_pool1d, 2: tnn.adaptive_avg_pool2d, 3: tnn.adaptive_avg_pool3d}
_ADAPTIVE_MAX = {1: tnn.adaptive_max_pool1d, 2: tnn.adaptive_max_pool2d, 3: tnn.adaptive_max_pool3d}


def data_format_of(data_format):
    if data_format is None:
        return config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            f"data_format must be 'channels_last' or 'channels_first'. Received: {data_format!r}."
        )
    return data_format


def _tuple(value, n, name):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) != n:
        raise ValueError(f"{name} must be an int or a tuple of {n} ints. Received: {value}.")
    return value


def _spatial(x, op):
    n = x.ndim - 2
    if n not in (1, 2, 3):
        raise ValueError(
            f"{op} needs inputs of rank 3, 4 or 5 (batch, spatial..., channels). "
            f"Received shape {tuple(x.shape)}."
        )
    return n


def to_channels_first(x):
    return x.permute(0, x.ndim - 1, *range(1, x.ndim - 1))


def to_channels_last(x):
    return x.permute(0, *range(2, x.ndim), 1)


def _same_padding(size, kernel, stride, dilation):
    effective = (kernel - 1) * dilation + 1
    out = (size + stride - 1) // stride
    total = max(0, (out - 1) * stride + effective - size)
    return total // 2, total - total // 2


def _pad_same(x, kernels, strides, dilations, value=0.0):
    pads = [
        _same_padding(size, k, s, d)
        for size, k, s, d in zip(x.shape[2:], kernels, strides, dilations, strict=True)
    ]
    if all(left == right for left, right in pads):
        return x, tuple(left for left, _ in pads)
    flat = []
    for left, right in reversed(pads):
        flat += [left, right]
    return tnn.pad(x, flat, value=value), 0


def _torch_kernel(kernel):
    # (*spatial, in, out) -> (out, in, *spatial)
    n = kernel.ndim
    return kernel.permute(n - 1, n - 2, *range(n - 2))


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    x = t(inputs)
    kernel = t(kernel)
    if kernel.dtype is not x.dtype:
        kernel = kernel.to(x.dtype)
    n = _spatial(x, "conv")
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        x = to_channels_first(x)
    w = _torch_kernel(kernel)
    strides = _tuple(strides, n, "strides")
    dilation = _tuple(dilation_rate, n, "dilation_rate")
    in_channels = x.shape[1]
    if in_channels % w.shape[1] != 0:
        raise ValueError(
            f"conv: the input has {in_channels} channels, which is not a multiple of the "
            f"kernel's input channels ({w.shape[1]}). Input shape {tuple(inputs.shape)}, "
            f"kernel shape {tuple(kernel.shape)}."
        )
    groups = in_channels // w.shape[1]
    if padding == "same":
        x, pad = _pad_same(x, w.shape[2:], strides, dilation)
    elif padding == "valid":
        pad = 0
    else:
        raise ValueError(f"conv: padding must be 'valid' or 'same'. Received: {padding!r}.")
    out = _CONV[n](x, w, stride=strides, padding=pad, dilation=dilation, groups=groups)
    return to_channels_last(out) if channels_last else out


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    kernel = t(kernel)
    kernel = kernel.reshape(*kernel.shape[:-2], 1, kernel.shape[-2] * kernel.shape[-1])
    return conv(inputs, kernel, strides, padding, data_format, dilation_rate)


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    out = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format, dilation_rate)
    return conv(out, pointwise_kernel, 1, "valid", data_format, dilation_rate)


def _transpose_crops(size_args):
    # Crops of torch's full transposed conv to Keras's output (negative: pad zeros).
    crops = []
    for kernel, stride, dilation, padding, output_padding in size_args:
        k = (kernel - 1) * dilation + 1
        if padding == "valid":
            extra = max(k, stride) - k if output_padding is None else output_padding
            left, right = k - 1, k - 1 + extra
        else:
            if output_padding is None:
                pad_len = stride + k - 2
            else:
                pad_len = k + k % 2 - 2 + output_padding
            left = min(pad_len // 2 + pad_len % 2, k - 1)
            right = pad_len - left
        crops.append((k - 1 - left, k - 1 - right))
    return crops


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    x = t(inputs)
    kernel = t(kernel)
    if kernel.dtype is not x.dtype:
        kernel = kernel.to(x.dtype)
    n = _spatial(x, "conv_transpose")
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        x = to_channels_first(x)
    strides = _tuple(strides, n, "strides")
    dilation = _tuple(dilation_rate, n, "dilation_rate")
    out_pad = (None,) * n if output_padding is None else _tuple(output_padding, n, "output_padding")
    # Keras kernel (*spatial, out, in) -> torch (in, out, *spatial).
    w = kernel.permute(n + 1, n, *range(n))
    out = _CONV_T[n](x, w, stride=strides, dilation=dilation)
    crops = _transpose_crops(
        zip(kernel.shape[:n], strides, dilation, (padding,) * n, out_pad, strict=True)
    )
    index = [slice(None), slice(None)]
    pads = []
    for left, right in crops:
        index.append(slice(max(0, left), -right if right > 0 else None))
    out = out[tuple(index)]
    if any(left < 0 or right < 0 for left, right in crops):
        for left, right in reversed(crops):
            pads += [max(0, -left), max(0, -right)]
        out = tnn.pad(out, pads)
    return to_channels_last(out) if channels_last else out


def _pool_args(x, pool_size, strides, op):
    n = _spatial(x, op)
    pool = _tuple(pool_size, n, "pool_size")
    strides = pool if strides is None else _tuple(strides, n, "strides")
    return n, pool, strides


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x = t(inputs)
    n, pool, strides = _pool_args(x, pool_size, strides, "max_pool")
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        x = to_channels_first(x)
    if padding == "same":
        fill = float("-inf") if x.dtype.is_floating_point else int(torch.iinfo(x.dtype).min)
        x, pad = _pad_same(x, pool, strides, (1,) * n, value=fill)
    else:
        pad = 0
    out = _MAX_POOL[n](x, pool, strides, pad)
    return to_channels_last(out) if channels_last else out


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x = t(inputs)
    n, pool, strides = _pool_args(x, pool_size, strides, "average_pool")
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        x = to_channels_first(x)
    if padding == "same":
        padded, pad = _pad_same(x, pool, strides, (1,) * n)
        if pad == 0:
            # Asymmetric padding: average only over real elements (as TF/JAX do).
            ones = torch.ones((1, 1, *x.shape[2:]), dtype=x.dtype, device=x.device)
            ones, _ = _pad_same(ones, pool, strides, (1,) * n)
            total = _AVG_POOL[n](padded, pool, strides, 0) * math.prod(pool)
            count = _AVG_POOL[n](ones, pool, strides, 0) * math.prod(pool)
            out = total / count
        else:
            out = _AVG_POOL[n](x, pool, strides, pad, count_include_pad=False)
    else:
        out = _AVG_POOL[n](x, pool, strides, 0)
    return to_channels_last(out) if channels_last else out


def _adaptive(table, inputs, output_size, data_format, op):
    x = t(inputs)
    n = _spatial(x, op)
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        x = to_channels_first(x)
    size = _tuple(output_size, n, "output_size")
    out = table[n](x, size[0] if n == 1 else size)
    if isinstance(out, tuple):
        out = out[0]
    return to_channels_last(out) if channels_last else out


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive(_ADAPTIVE_AVG, inputs, output_size, data_format, "adaptive_average_pool")


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive(_ADAPTIVE_MAX, inputs, output_size, data_format, "adaptive_max_pool")


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    return tnn.unfold(t(x), kernel_size, dilation=dilation, padding=padding, stride=stride)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return tnn.fold(
        t(x), output_size, kernel_size, dilation=dilation, padding=padding, stride=stride
    )


def depth_to_space(x, block_size, data_format="channels_last"):
    x = t(x)
    b = block_size
    if data_format_of(data_format) == "channels_last":
        n, h, w, c = x.shape
        x = x.reshape(n, h, w, b, b, c // (b * b)).permute(0, 1, 3, 2, 4, 5)
        return x.reshape(n, h * b, w * b, c // (b * b))
    n, c, h, w = x.shape
    x = x.reshape(n, c // (b * b), b, b, h, w).permute(0, 1, 4, 2, 5, 3)
    return x.reshape(n, c // (b * b), h * b, w * b)


def space_to_depth(x, block_size, data_format="channels_last"):
    x = t(x)
    b = block_size
    if data_format_of(data_format) == "channels_last":
        n, h, w, c = x.shape
        x = x.reshape(n, h // b, b, w // b, b, c).permute(0, 1, 3, 2, 4, 5)
        return x.reshape(n, h // b, w // b, c * b * b)
    n, c, h, w = x.shape
    x = x.reshape(n, c, h // b, b, w // b, b).permute(0, 1, 3, 5, 2, 4)
    return x.reshape(n, c * b * b, h // b, w // b)
