"""Argument rules of the nn convolution and pooling ops, written once (pure Python)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mb_ops import config


def data_format(value: Any) -> str:
    """``value``, or the configured ``image_data_format`` for None; refuses anything else."""
    value = config.image_data_format() if value is None else value
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            f"data_format must be 'channels_last' or 'channels_first'. Received: {value!r}."
        )
    return value


def per_axis(value: Any, n: int, name: str) -> tuple[int, ...]:
    """An int or a sequence, as a tuple of ``n`` ints.

    >>> per_axis(2, 3, "strides"), per_axis([1, 2], 2, "strides")
    ((2, 2, 2), (1, 2))
    """
    if isinstance(value, int | np.integer):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1 and n > 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"{name} must have {n} values, one per spatial axis. Received: {value}.")
    return value


def pair(value: Any) -> tuple[int, int]:
    """An int or two ints (torch's Unfold/Fold arguments), as two ints."""
    if isinstance(value, int | np.integer):
        return int(value), int(value)
    first, second = (int(v) for v in value)
    return first, second


def check_padding(padding: str) -> str:
    """``padding`` in lower case; refuses anything but 'valid' and 'same'."""
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"padding must be 'valid' or 'same'. Received: padding={padding!r}.")
    return padding


def transpose_paddings(
    kernel_spatial: Any, strides: Any, dilation: Any, padding: str, output_padding: Any
) -> list[tuple[int, int]]:
    """Per spatial axis, the (left, right) padding of the forward convolution that
    computes ``conv_transpose`` over the stride-dilated input (Keras's rule).

    ``output_padding`` (None, an int, or one per axis) adds to the right side.

    >>> transpose_paddings((3,), (2,), (1,), "same", None)
    [(2, 1)]
    """
    n = len(kernel_spatial)
    padding = check_padding(padding)
    if output_padding is None or isinstance(output_padding, int | np.integer):
        output_padding = (output_padding,) * n
    pads = []
    for k, stride, d, extra in zip(kernel_spatial, strides, dilation, output_padding, strict=True):
        extent = (k - 1) * d + 1
        if padding == "valid":
            if extra is None:
                extra = max(extent, stride) - extent
            pads.append((extent - 1, extent - 1 + extra))
            continue
        total = stride + extent - 2 if extra is None else extent + extent % 2 - 2 + extra
        left = min(total // 2 + total % 2, extent - 1)
        pads.append((left, total - left))
    return pads


def channels_of(shape: Any, data_format: str) -> int:
    """The channel count of an input of ``shape`` laid out as ``data_format``."""
    return shape[-1] if data_format == "channels_last" else shape[1]


def conv_groups(name: str, channels: int, kernel_in: int) -> int:
    """The number of groups of a ``conv`` whose kernel takes ``kernel_in`` of the
    input's ``channels`` (kernel.shape[-2]); refuses a kernel that does not divide them.

    >>> conv_groups("conv", 6, 2)
    3
    """
    if kernel_in == 0 or channels % kernel_in:
        raise ValueError(
            f"{name}: the input's channels ({channels}) must be a multiple of the kernel's "
            f"input channels ({kernel_in}, i.e. kernel.shape[-2])."
        )
    return channels // kernel_in


def check_depthwise_kernel(kernel_shape: Any, channels: int) -> None:
    """``depthwise_conv``'s kernel (*spatial, channels, multiplier) against the input."""
    if kernel_shape[-2] != channels:
        raise ValueError(
            f"depthwise_conv: kernel.shape[-2] ({kernel_shape[-2]}) must equal the input's "
            f"channels ({channels}). Received kernel shape {kernel_shape}."
        )


def check_transpose_kernel(kernel_shape: Any, channels: int) -> None:
    """``conv_transpose``'s kernel (*spatial, out_channels, in_channels) against the input."""
    if kernel_shape[-1] != channels:
        raise ValueError(
            f"conv_transpose: kernel.shape[-1] ({kernel_shape[-1]}) must equal the input's "
            f"channels ({channels}); the kernel is (*spatial, out_channels, in_channels)."
        )


def check_adaptive_rank(ndim: int) -> int:
    """The number of spatial axes of an adaptive pooling input (1 to 3)."""
    if ndim - 2 not in (1, 2, 3):
        raise ValueError(
            f"Adaptive pooling supports 1D, 2D and 3D inputs (rank 3 to 5). "
            f"Received an input of rank {ndim}."
        )
    return ndim - 2


def check_attention_arguments(
    backend: str, flash_attention: Any, query: Any, key: Any, value: Any
) -> None:
    """``dot_product_attention`` on an engine without flash attention: 4D inputs
    (batch, seq, heads, head_dim) and no ``flash_attention=True``."""
    if flash_attention:
        raise ValueError(
            f"flash_attention=True is not supported on the {backend} backend. "
            "Pass flash_attention=None or False."
        )
    if query.ndim != 4:
        raise ValueError(
            "dot_product_attention expects 4D inputs (batch, seq, heads, head_dim). "
            f"Received: query.shape={query.shape}, key.shape={key.shape}, "
            f"value.shape={value.shape}."
        )
