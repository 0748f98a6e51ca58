"""Pooling: max and average over windows, and adaptive (output-sized) pooling."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.nn._layout import check_padding, data_format_of, per_dim, window


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
