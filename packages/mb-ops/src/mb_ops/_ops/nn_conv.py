"""Convolutions, pooling and patch ops of the nn family (static output shapes)."""

from __future__ import annotations

import math
from typing import Any

from mb_ops import _config
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import fmt, shape_of, std_dtype, tensor


def data_format_of(data_format: Any) -> str:
    fmt_ = data_format or _config.image_data_format()
    if fmt_ not in ("channels_last", "channels_first"):
        raise ValueError(
            f"data_format must be 'channels_last' or 'channels_first', received {fmt_!r}."
        )
    return fmt_


def as_tuple(value: Any, n: int, name: str, op_name: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"{op_name}: {name}={value} must have {n} entries (one per spatial axis).")
    return value


def split_channels(op_name: str, shape: Any, data_format: str, min_rank: int = 3) -> Any:
    if len(shape) < min_rank:
        raise ValueError(
            f"{op_name}: expected inputs of rank >= {min_rank} (batch, spatial..., channels), "
            f"received shape {fmt(shape)}."
        )
    if data_format == "channels_last":
        return shape[0], tuple(shape[1:-1]), shape[-1]
    return shape[0], tuple(shape[2:]), shape[1]


def join_channels(batch: Any, spatial: Any, channels: Any, data_format: str) -> tuple:
    if data_format == "channels_last":
        return (batch, *spatial, channels)
    return (batch, channels, *spatial)


def window_output(length: Any, size: int, stride: int, padding: str, dilation: int = 1) -> Any:
    if length is None:
        return None
    padding = padding.lower()
    if padding == "same":
        return math.ceil(length / stride)
    if padding == "valid":
        effective = dilation * (size - 1) + 1
        return max(0, (length - effective) // stride + 1)
    raise ValueError(f"padding must be 'valid' or 'same', received {padding!r}.")


def _conv_common(
    op_name: str,
    inputs: Any,
    kernel: Any,
    strides: Any,
    padding: Any,
    data_format: Any,
    dilation_rate: Any,
) -> tuple:
    fmt_ = data_format_of(data_format)
    shape = shape_of(inputs)
    kshape = shape_of(kernel)
    batch, spatial, channels = split_channels(op_name, shape, fmt_)
    n = len(spatial)
    if len(kshape) != n + 2:
        raise ValueError(
            f"{op_name}: the kernel must have rank {n + 2} for inputs of shape {fmt(shape)} "
            f"(spatial..., in_channels, out_channels); received kernel shape {fmt(kshape)}."
        )
    strides = as_tuple(strides, n, "strides", op_name)
    dilation = as_tuple(dilation_rate, n, "dilation_rate", op_name)
    out_spatial = tuple(
        window_output(length, k, s, padding, d)
        for length, k, s, d in zip(spatial, kshape[:n], strides, dilation, strict=True)
    )
    return fmt_, batch, channels, out_spatial, kshape


def _conv_spec(
    op_name, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1
) -> Any:
    fmt_, batch, channels, out_spatial, kshape = _conv_common(
        op_name, inputs, kernel, strides, padding, data_format, dilation_rate
    )
    in_k = kshape[-2]
    if channels is not None and in_k is not None and channels % in_k:
        raise ValueError(
            f"{op_name}: the input has {channels} channels, which the kernel's input channels "
            f"({in_k}, kernel shape {fmt(kshape)}) must divide (groups)."
        )
    return tensor(join_channels(batch, out_spatial, kshape[-1], fmt_), std_dtype(inputs))


@op(_conv_spec, "nn")
def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (1D, 2D or 3D) of ``inputs`` with ``kernel``.

    Args:
        inputs: a tensor of rank 3, 4 or 5: ``(batch, *spatial, channels)`` for
            ``"channels_last"``, ``(batch, channels, *spatial)`` for ``"channels_first"``.
        kernel: a tensor ``(*kernel_spatial, in_channels, out_channels)``; ``in_channels``
            may divide the input's channels (grouped convolution).
        strides: an int or one int per spatial axis.
        padding: ``"valid"`` (no padding) or ``"same"`` (output size ``ceil(size / stride)``).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis: the spacing between kernel taps.

    Returns:
        A tensor ``(batch, *out_spatial, out_channels)`` (channels last).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> ops.convert_to_numpy(ops.conv(x, np.ones((2, 1, 1), "float32")))[0, :, 0].tolist()
    [1.0, 3.0, 5.0, 7.0]
    >>> images = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> y = ops.conv(images, np.ones((2, 2, 1, 1), "float32"), strides=2)
    >>> ops.convert_to_numpy(y)[0, :, :, 0].tolist()
    [[10.0, 18.0], [42.0, 50.0]]
    """


def _depthwise_spec(
    op_name, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1
) -> Any:
    fmt_, batch, channels, out_spatial, kshape = _conv_common(
        op_name, inputs, kernel, strides, padding, data_format, dilation_rate
    )
    out_ch = None if channels is None or kshape[-1] is None else channels * kshape[-1]
    return tensor(join_channels(batch, out_spatial, out_ch, fmt_), std_dtype(inputs))


@op(_depthwise_spec, "nn")
def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Depthwise convolution: each input channel convolved with its own filters.

    Args:
        inputs: a tensor of rank 3, 4 or 5 (see ``conv``).
        kernel: a tensor ``(*kernel_spatial, in_channels, depth_multiplier)``.
        strides: an int or one int per spatial axis.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis.

    Returns:
        A tensor with ``in_channels * depth_multiplier`` channels; channel ``c * m + j`` is
        input channel ``c`` convolved with ``kernel[..., c, j]``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((1, 3, 2), "float32") * [1.0, 2.0]
    >>> y = ops.depthwise_conv(x, np.ones((2, 2, 1), "float32"))
    >>> ops.convert_to_numpy(y)[0].tolist()
    [[2.0, 4.0], [2.0, 4.0]]
    """


def _separable_spec(
    op_name,
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
) -> Any:
    fmt_, batch, _, out_spatial, _ = _conv_common(
        op_name, inputs, depthwise_kernel, strides, padding, data_format, dilation_rate
    )
    out_ch = shape_of(pointwise_kernel)[-1]
    return tensor(join_channels(batch, out_spatial, out_ch, fmt_), std_dtype(inputs))


@op(_separable_spec, "nn")
def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    """Depthwise convolution followed by a pointwise (1x1) convolution.

    Args:
        inputs: a tensor of rank 3 or 4 (see ``conv``).
        depthwise_kernel: a tensor ``(*kernel_spatial, in_channels, depth_multiplier)``.
        pointwise_kernel: a tensor ``(*ones, in_channels * depth_multiplier, out_channels)``.
        strides: an int or one int per spatial axis.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis.

    Returns:
        A tensor with ``out_channels`` channels.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((1, 3, 2), "float32") * [1.0, 2.0]
    >>> y = ops.separable_conv(
    ...     x, np.ones((2, 2, 1), "float32"), np.ones((1, 2, 1), "float32")
    ... )
    >>> ops.convert_to_numpy(y)[0].tolist()
    [[6.0], [6.0]]
    """


def transpose_output(length: Any, k: int, s: int, padding: str, out_pad: Any, d: int) -> Any:
    if length is None:
        return None
    k_eff = k + (k - 1) * (d - 1)
    if out_pad is None:
        if padding.lower() == "valid":
            return length * s + max(k_eff - s, 0)
        return length * s
    pad = 0 if padding.lower() == "valid" else k_eff // 2
    return (length - 1) * s + k_eff - 2 * pad + out_pad


def _conv_transpose_spec(
    op_name,
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
) -> Any:
    fmt_ = data_format_of(data_format)
    shape, kshape = shape_of(inputs), shape_of(kernel)
    batch, spatial, _ = split_channels(op_name, shape, fmt_)
    n = len(spatial)
    if len(kshape) != n + 2:
        raise ValueError(
            f"{op_name}: the kernel must have rank {n + 2} (spatial..., out_channels, "
            f"in_channels); received kernel shape {fmt(kshape)}."
        )
    strides = as_tuple(strides, n, "strides", op_name)
    dilation = as_tuple(dilation_rate, n, "dilation_rate", op_name)
    out_pad = (None,) * n if output_padding is None else as_tuple(output_padding, n, "", op_name)
    out_spatial = tuple(
        transpose_output(length, k, s, padding, p, d)
        for length, k, s, p, d in zip(spatial, kshape[:n], strides, out_pad, dilation, strict=True)
    )
    return tensor(join_channels(batch, out_spatial, kshape[-2], fmt_), std_dtype(inputs))


@op(_conv_transpose_spec, "nn")
def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    """Transposed convolution (the gradient of ``conv`` with respect to its input).

    Args:
        inputs: a tensor of rank 3, 4 or 5 (see ``conv``).
        kernel: a tensor ``(*kernel_spatial, out_channels, in_channels)``.
        strides: an int or one int per spatial axis: the upsampling factor.
        padding: ``"valid"`` or ``"same"``.
        output_padding: None, an int or one int per spatial axis: extra size added to one
            side of the output (to pick among the sizes that map to the same input).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis.

    Returns:
        A tensor with ``out_channels`` channels; with ``"valid"`` padding each spatial size is
        ``(size - 1) * stride + kernel_size``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[[1.0], [2.0]]], "float32")
    >>> y = ops.conv_transpose(x, np.ones((2, 1, 1), "float32"), strides=2)
    >>> ops.convert_to_numpy(y)[0, :, 0].tolist()
    [1.0, 1.0, 2.0, 2.0]
    """


def _pool_spec(op_name, inputs, pool_size, strides=None, padding="valid", data_format=None):
    fmt_ = data_format_of(data_format)
    shape = shape_of(inputs)
    batch, spatial, channels = split_channels(op_name, shape, fmt_)
    n = len(spatial)
    size = as_tuple(pool_size, n, "pool_size", op_name)
    strides = size if strides is None else as_tuple(strides, n, "strides", op_name)
    out_spatial = tuple(
        window_output(length, k, s, padding)
        for length, k, s in zip(spatial, size, strides, strict=True)
    )
    return tensor(join_channels(batch, out_spatial, channels, fmt_), std_dtype(inputs))


@op(_pool_spec, "nn")
def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Max pooling: the largest value of each window.

    Args:
        inputs: a tensor of rank 3, 4 or 5 (see ``conv``).
        pool_size: an int or one int per spatial axis: the window size.
        strides: an int or one int per spatial axis; None: ``pool_size``.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor with the same batch and channel sizes as ``inputs``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> images = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> ops.convert_to_numpy(ops.max_pool(images, 2))[0, :, :, 0].tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """


@op(_pool_spec, "nn")
def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Average pooling: the mean of each window.

    Args:
        inputs: a tensor of rank 3, 4 or 5 (see ``conv``).
        pool_size: an int or one int per spatial axis: the window size.
        strides: an int or one int per spatial axis; None: ``pool_size``.
        padding: ``"valid"`` or ``"same"`` (padded positions are not counted in the mean).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor with the same batch and channel sizes as ``inputs``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> ops.convert_to_numpy(ops.average_pool(x, 2, strides=1))[0, :, 0].tolist()
    [0.5, 1.5, 2.5, 3.5]
    """


def _adaptive_spec(op_name, inputs, output_size, data_format=None):
    fmt_ = data_format_of(data_format)
    batch, spatial, channels = split_channels(op_name, shape_of(inputs), fmt_)
    out = as_tuple(output_size, len(spatial), "output_size", op_name)
    return tensor(join_channels(batch, out, channels, fmt_), std_dtype(inputs))


@op(_adaptive_spec, "nn")
def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed output size (as torch's ``AdaptiveAvgPool``).

    Args:
        inputs: a tensor of rank 3, 4 or 5 (see ``conv``).
        output_size: an int or one int per spatial axis: the output's spatial size. Window
            ``i`` of an axis of size ``n`` covers ``floor(i * n / out)`` to
            ``ceil((i + 1) * n / out)``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor with spatial size ``output_size``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> ops.convert_to_numpy(ops.adaptive_average_pool(x, 2))[0, :, 0].tolist()
    [1.0, 3.0]
    """


@op(_adaptive_spec, "nn")
def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed output size (as torch's ``AdaptiveMaxPool``).

    Args:
        inputs: a tensor of rank 3, 4 or 5 (see ``conv``).
        output_size: an int or one int per spatial axis: the output's spatial size (windows
            as in ``adaptive_average_pool``).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor with spatial size ``output_size``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> ops.convert_to_numpy(ops.adaptive_max_pool(x, 2))[0, :, 0].tolist()
    [2.0, 4.0]
    """


def _unfold_spec(op_name, x, kernel_size, dilation=1, padding=0, stride=1):
    shape = shape_of(x)
    if len(shape) != 4:
        raise ValueError(f"{op_name}: expected (N, C, H, W) input, received shape {fmt(shape)}.")
    k = as_tuple(kernel_size, 2, "kernel_size", op_name)
    d = as_tuple(dilation, 2, "dilation", op_name)
    p = as_tuple(padding, 2, "padding", op_name)
    s = as_tuple(stride, 2, "stride", op_name)
    blocks = 1
    for length, ki, di, pi, si in zip(shape[2:], k, d, p, s, strict=True):
        if length is None or blocks is None:
            blocks = None
            continue
        blocks *= (length + 2 * pi - di * (ki - 1) - 1) // si + 1
    channels = None if shape[1] is None else shape[1] * k[0] * k[1]
    return tensor((shape[0], channels, blocks), std_dtype(x))


@op(_unfold_spec, "nn")
def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Extract sliding local blocks (torch's ``unfold``, "im2col").

    Args:
        x: a tensor ``(N, C, H, W)``.
        kernel_size: an int or a pair: the block size.
        dilation: an int or a pair: the spacing between the elements of a block.
        padding: an int or a pair: zeros added on both sides of each spatial axis.
        stride: an int or a pair: the step between blocks.

    Returns:
        A tensor ``(N, C * kh * kw, L)``: one column per block, ``L`` blocks.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    >>> blocks = ops.unfold(x, 2, stride=2)
    >>> ops.shape(blocks)
    (1, 4, 4)
    >>> ops.convert_to_numpy(blocks)[0, :, 0].tolist()  # the top-left 2x2 block
    [0.0, 1.0, 4.0, 5.0]
    """


def _fold_spec(op_name, x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    shape = shape_of(x)
    if len(shape) != 3:
        raise ValueError(f"{op_name}: expected (N, C*kh*kw, L) input, received {fmt(shape)}.")
    k = as_tuple(kernel_size, 2, "kernel_size", op_name)
    out = as_tuple(output_size, 2, "output_size", op_name)
    channels = None if shape[1] is None else shape[1] // (k[0] * k[1])
    return tensor((shape[0], channels, *out), std_dtype(x))


@op(_fold_spec, "nn")
def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Combine sliding local blocks into a tensor (torch's ``fold``, the inverse of ``unfold``).

    Overlapping values are summed.

    Args:
        x: a tensor ``(N, C * kh * kw, L)``.
        output_size: a pair: the spatial size ``(H, W)`` of the result.
        kernel_size: an int or a pair: the block size.
        dilation: an int or a pair.
        padding: an int or a pair.
        stride: an int or a pair.

    Returns:
        A tensor ``(N, C, H, W)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    >>> blocks = ops.unfold(x, 2, stride=2)
    >>> back = ops.fold(blocks, (4, 4), 2, stride=2)
    >>> bool((ops.convert_to_numpy(back) == x).all())
    True
    """


def _depth_space_spec(op_name, x, block_size, data_format="channels_last"):
    fmt_ = data_format_of(data_format)
    batch, spatial, channels = split_channels(op_name, shape_of(x), fmt_, min_rank=4)
    b = block_size
    if op_name == "depth_to_space":
        if channels is not None and channels % (b * b):
            raise ValueError(
                f"{op_name}: channels ({channels}) must be divisible by block_size**2 ({b * b})."
            )
        spatial = tuple(None if d is None else d * b for d in spatial)
        channels = None if channels is None else channels // (b * b)
    else:
        for d in spatial:
            if d is not None and d % b:
                raise ValueError(
                    f"{op_name}: spatial sizes {spatial} must be divisible by block_size {b}."
                )
        spatial = tuple(None if d is None else d // b for d in spatial)
        channels = None if channels is None else channels * b * b
    return tensor(join_channels(batch, spatial, channels, fmt_), std_dtype(x))


@op(_depth_space_spec, "nn")
def depth_to_space(x, block_size, data_format="channels_last"):
    """Rearrange depth (channels) into spatial blocks (TensorFlow's ``depth_to_space``).

    Args:
        x: a tensor ``(batch, height, width, channels)`` (channels last).
        block_size: the block size ``b``; ``channels`` must be divisible by ``b * b``.
        data_format: ``"channels_last"`` or ``"channels_first"``.

    Returns:
        A tensor ``(batch, height * b, width * b, channels / b**2)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(4, dtype="float32").reshape(1, 1, 1, 4)
    >>> ops.convert_to_numpy(ops.depth_to_space(x, 2))[0, :, :, 0].tolist()
    [[0.0, 1.0], [2.0, 3.0]]
    """


@op(_depth_space_spec, "nn")
def space_to_depth(x, block_size, data_format="channels_last"):
    """Rearrange spatial blocks into depth (channels); the inverse of ``depth_to_space``.

    Args:
        x: a tensor ``(batch, height, width, channels)`` (channels last).
        block_size: the block size ``b``; ``height`` and ``width`` must be divisible by it.
        data_format: ``"channels_last"`` or ``"channels_first"``.

    Returns:
        A tensor ``(batch, height / b, width / b, channels * b**2)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(4, dtype="float32").reshape(1, 2, 2, 1)
    >>> ops.convert_to_numpy(ops.space_to_depth(x, 2)).tolist()
    [[[[0.0, 1.0, 2.0, 3.0]]]]
    """
