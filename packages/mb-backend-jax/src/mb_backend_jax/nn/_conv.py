"""Convolutions, pooling, patches (unfold/fold) and pixel shuffles.

Kernels use Keras's layout: ``(*spatial, in_channels, out_channels)`` (for
depthwise: ``(*spatial, in_channels, multiplier)``).
"""

import math

import jax
import jax.numpy as jnp
import numpy as np

from mb_backend_jax.core import cast, convert_to_tensor
from mb_backend_jax.nn._common import (
    check_padding,
    conv_dimension_numbers,
    data_format_of,
    per_dim,
    window,
)
from mb_ops import dtypes


def _channels(x, data_format):
    return x.shape[-1] if data_format == "channels_last" else x.shape[1]


def _same_dtype(inputs, kernel):
    dtype = dtypes.result_type(inputs.dtype, kernel.dtype)
    return cast(inputs, dtype), cast(kernel, dtype)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (grouped when in_channels divides the input channels)."""
    data_format = data_format_of(data_format)
    inputs, kernel = _same_dtype(convert_to_tensor(inputs), convert_to_tensor(kernel))
    num_dims = inputs.ndim - 2
    channels = _channels(inputs, data_format)
    kernel_in = kernel.shape[-2]
    if kernel.ndim != inputs.ndim or channels % kernel_in:
        raise ValueError(
            "conv expects a kernel of shape (*spatial, in_channels, out_channels) whose "
            "in_channels divides the input channels. Received input shape "
            f"{inputs.shape} ({data_format}) and kernel shape {kernel.shape}."
        )
    out = jax.lax.conv_general_dilated(
        inputs,
        kernel,
        per_dim(strides, num_dims, "strides"),
        check_padding(padding),
        rhs_dilation=per_dim(dilation_rate, num_dims, "dilation_rate"),
        dimension_numbers=conv_dimension_numbers(num_dims, data_format),
        feature_group_count=channels // kernel_in,
    )
    if out.size == 0 and inputs.size != 0:
        raise ValueError(
            f"conv produced an empty output: input shape {inputs.shape} is smaller than "
            f"the kernel {kernel.shape[:-2]} with strides={strides}, "
            f"dilation_rate={dilation_rate}, padding={padding!r}. Use padding='same' "
            "or a larger input."
        )
    return out


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Depthwise convolution: each input channel convolved with its own filters."""
    data_format = data_format_of(data_format)
    inputs, kernel = _same_dtype(convert_to_tensor(inputs), convert_to_tensor(kernel))
    channels = _channels(inputs, data_format)
    if kernel.shape[-2] != channels:
        raise ValueError(
            "depthwise_conv expects a kernel of shape (*spatial, in_channels, multiplier) "
            f"with in_channels equal to the input channels. Received input shape "
            f"{inputs.shape} ({data_format}) and kernel shape {kernel.shape}."
        )
    num_dims = inputs.ndim - 2
    kernel = jnp.reshape(kernel, (*kernel.shape[:-2], 1, channels * kernel.shape[-1]))
    return jax.lax.conv_general_dilated(
        inputs,
        kernel,
        per_dim(strides, num_dims, "strides"),
        check_padding(padding),
        rhs_dilation=per_dim(dilation_rate, num_dims, "dilation_rate"),
        dimension_numbers=conv_dimension_numbers(num_dims, data_format),
        feature_group_count=channels,
    )


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    """A depthwise convolution followed by a 1x1 (pointwise) convolution."""
    out = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format, dilation_rate)
    return conv(out, pointwise_kernel, 1, "valid", data_format, dilation_rate)


def _transpose_padding(kernel_size, stride, dilation, padding, output_padding):
    # Keras's rule: VALID/SAME pick a base output size; output_padding is added
    # on the right. lax.conv_transpose takes explicit (left, right) padding.
    if padding not in ("valid", "same"):
        raise ValueError(f"padding must be 'valid' or 'same'. Received: padding={padding!r}.")
    effective = (kernel_size - 1) * dilation + 1
    if padding == "valid":
        extra = max(effective, stride) - effective if output_padding is None else output_padding
        return effective - 1, effective - 1 + extra
    if output_padding is None:
        total = stride + effective - 2
    else:
        total = effective + effective % 2 - 2 + output_padding
    left = min(total // 2 + total % 2, effective - 1)
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
    """Transposed convolution; kernel shape ``(*spatial, out_channels, in_channels)``."""
    data_format = data_format_of(data_format)
    inputs, kernel = _same_dtype(convert_to_tensor(inputs), convert_to_tensor(kernel))
    num_dims = inputs.ndim - 2
    if kernel.shape[-1] != _channels(inputs, data_format):
        raise ValueError(
            "conv_transpose expects a kernel of shape (*spatial, out_channels, in_channels) "
            f"matching the input channels. Received input shape {inputs.shape} "
            f"({data_format}) and kernel shape {kernel.shape}."
        )
    strides = per_dim(strides, num_dims, "strides")
    dilation = per_dim(dilation_rate, num_dims, "dilation_rate")
    if output_padding is None or isinstance(output_padding, int):
        output_padding = (output_padding,) * num_dims
    pads = [
        _transpose_padding(kernel.shape[i], strides[i], dilation[i], padding, output_padding[i])
        for i in range(num_dims)
    ]
    return jax.lax.conv_transpose(
        inputs,
        kernel,
        strides,
        padding=pads,
        rhs_dilation=dilation,
        dimension_numbers=conv_dimension_numbers(num_dims, data_format),
        transpose_kernel=True,
    )


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an NCHW image as columns: ``(N, C*kH*kW, L)``."""
    x = convert_to_tensor(x)
    pad_h, pad_w = _pair(padding)
    x = jnp.pad(x, ((0, 0), (0, 0), (pad_h, pad_h), (pad_w, pad_w)))
    patches = jax.lax.conv_general_dilated_patches(
        x,
        filter_shape=_pair(kernel_size),
        window_strides=_pair(stride),
        padding="VALID",
        rhs_dilation=_pair(dilation),
        dimension_numbers=("NCHW", "OIHW", "NCHW"),
    )
    n, ckk = patches.shape[:2]
    return jnp.reshape(patches, (n, ckk, -1))


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The inverse of ``unfold``: sum columns ``(N, C*kH*kW, L)`` into an NCHW image."""
    x = convert_to_tensor(x)
    out_h, out_w = _pair(output_size)
    k_h, k_w = _pair(kernel_size)
    d_h, d_w = _pair(dilation)
    p_h, p_w = _pair(padding)
    s_h, s_w = _pair(stride)
    n, ckk, _ = x.shape
    c = ckk // (k_h * k_w)
    blocks_h = (out_h + 2 * p_h - d_h * (k_h - 1) - 1) // s_h + 1
    blocks_w = (out_w + 2 * p_w - d_w * (k_w - 1) - 1) // s_w + 1
    x = jnp.reshape(x, (n, ckk, blocks_h, blocks_w))
    # An identity kernel scatters each column entry back to its pixel.
    kernel = jnp.eye(ckk, dtype=x.dtype).reshape(ckk, c, k_h, k_w).transpose(2, 3, 0, 1)
    out = jax.lax.conv_transpose(
        x,
        jnp.flip(kernel, axis=(0, 1)),
        strides=(s_h, s_w),
        padding="VALID",
        rhs_dilation=(d_h, d_w),
        dimension_numbers=("NCHW", "HWIO", "NCHW"),
    )
    return out[:, :, p_h : p_h + out_h, p_w : p_w + out_w]


def depth_to_space(x, block_size, data_format="channels_last"):
    """Move channel blocks into ``block_size`` x ``block_size`` spatial tiles."""
    x = convert_to_tensor(x)
    b = block_size
    if data_format_of(data_format) == "channels_last":
        n, h, w, c = x.shape
        x = jnp.reshape(x, (n, h, w, b, b, c // b**2)).transpose(0, 1, 3, 2, 4, 5)
        return jnp.reshape(x, (n, h * b, w * b, c // b**2))
    n, c, h, w = x.shape
    x = jnp.reshape(x, (n, c // b**2, b, b, h, w)).transpose(0, 1, 4, 2, 5, 3)
    return jnp.reshape(x, (n, c // b**2, h * b, w * b))


def space_to_depth(x, block_size, data_format="channels_last"):
    """Move ``block_size`` x ``block_size`` spatial tiles into channels."""
    x = convert_to_tensor(x)
    b = block_size
    if data_format_of(data_format) == "channels_last":
        n, h, w, c = x.shape
        x = jnp.reshape(x, (n, h // b, b, w // b, b, c)).transpose(0, 1, 3, 2, 4, 5)
        return jnp.reshape(x, (n, h // b, w // b, c * b**2))
    n, c, h, w = x.shape
    x = jnp.reshape(x, (n, c, h // b, b, w // b, b)).transpose(0, 1, 3, 5, 2, 4)
    return jnp.reshape(x, (n, c * b**2, h // b, w // b))


def _pool_args(inputs, pool_size, strides, data_format):
    num_dims = inputs.ndim - 2
    pool = per_dim(pool_size, num_dims, "pool_size")
    steps = pool if strides is None else per_dim(strides, num_dims, "strides")
    return window(pool, num_dims, data_format), window(steps, num_dims, data_format)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Maximum over each window (``strides`` default to ``pool_size``)."""
    data_format = data_format_of(data_format)
    inputs = convert_to_tensor(inputs)
    dims, steps = _pool_args(inputs, pool_size, strides, data_format)
    # NumPy (concrete) start values: under jax.jit a jnp array would be traced, and
    # lax.reduce_window only differentiates max/add windows with a known start value.
    initial = np.array(-np.inf, inputs.dtype)
    if not jnp.issubdtype(inputs.dtype, jnp.floating):
        initial = np.array(jnp.iinfo(inputs.dtype).min, inputs.dtype)
    return jax.lax.reduce_window(inputs, initial, jax.lax.max, dims, steps, check_padding(padding))


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Mean over each window; with ``same`` padding, padded cells are not counted."""
    data_format = data_format_of(data_format)
    inputs = convert_to_tensor(inputs)
    dims, steps = _pool_args(inputs, pool_size, strides, data_format)
    lax_padding = check_padding(padding)
    zero = np.array(0, inputs.dtype)
    total = jax.lax.reduce_window(inputs, zero, jax.lax.add, dims, steps, lax_padding)
    if lax_padding == "VALID":
        return total / math.prod(dims)
    shape = [1 if d == 1 else s for s, d in zip(inputs.shape, dims, strict=True)]
    counts = jax.lax.reduce_window(
        jnp.ones(shape, inputs.dtype), zero, jax.lax.add, dims, steps, lax_padding
    )
    return total / counts


def _adaptive_windows(length, output_size):
    # PyTorch/Keras rule: window i covers [floor(i*L/out), ceil((i+1)*L/out)).
    starts = (np.arange(output_size) * length) // output_size
    ends = -((-(np.arange(1, output_size + 1) * length)) // output_size)
    positions = np.arange(length)
    return (positions[None, :] >= starts[:, None]) & (positions[None, :] < ends[:, None])


def _adaptive_pool(inputs, output_size, data_format, reduce):
    data_format = data_format_of(data_format)
    inputs = convert_to_tensor(inputs)
    num_dims = inputs.ndim - 2
    if num_dims not in (1, 2, 3):
        raise ValueError(
            f"Adaptive pooling supports 1 to 3 spatial dims. Received input shape {inputs.shape}."
        )
    sizes = per_dim(output_size, num_dims, "output_size")
    first = 1 if data_format == "channels_last" else 2
    x = inputs
    # The window box is a product of per-axis windows, so pool one axis at a time.
    for i, out in enumerate(sizes):
        axis = first + i
        mask = jnp.asarray(_adaptive_windows(x.shape[axis], out))  # (out, length)
        moved = jnp.moveaxis(x, axis, -1)[..., None, :]  # (..., 1, length)
        x = jnp.moveaxis(reduce(moved, mask), -1, axis)
    return x


def _masked_mean(x, mask):
    weights = mask / jnp.sum(mask, axis=-1, keepdims=True)
    return jnp.sum(x * weights.astype(x.dtype), axis=-1)


def _masked_max(x, mask):
    floating = jnp.issubdtype(x.dtype, jnp.floating)
    lowest = jnp.finfo(x.dtype).min if floating else jnp.iinfo(x.dtype).min
    return jnp.max(jnp.where(mask, x, lowest), axis=-1)


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed ``output_size`` (windows as in PyTorch)."""
    return _adaptive_pool(inputs, output_size, data_format, _masked_mean)


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed ``output_size`` (windows as in PyTorch)."""
    return _adaptive_pool(inputs, output_size, data_format, _masked_max)
