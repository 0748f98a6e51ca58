"""Image filters: Gaussian blur and Sobel edges."""

import jax
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.image._common import check_rank, data_format_of, to_batched_channels_last


def _depthwise(images, kernel):
    # images (N, H, W, C); kernel (kh, kw), applied to every channel, SAME padding.
    channels = images.shape[-1]
    weights = jnp.tile(kernel[:, :, None, None], (1, 1, 1, channels))
    return jax.lax.conv_general_dilated(
        images,
        weights.astype(images.dtype),
        (1, 1),
        "SAME",
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=channels,
    )


def _gaussian_1d(size, sigma, dtype):
    x = jnp.arange(size, dtype=dtype) - (size - 1) / 2
    weights = jnp.exp(-0.5 * (x / sigma) ** 2)
    return weights / jnp.sum(weights)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Blur with a Gaussian of ``kernel_size`` (width, height) and ``sigma`` per axis."""
    data_format = data_format_of(data_format)
    images = convert_to_tensor(images)
    check_rank(images, "gaussian_blur")
    batch, restore = to_batched_channels_last(images, data_format)
    dtype = batch.dtype
    sigma = convert_to_tensor(sigma, dtype=dtype)
    kx = _gaussian_1d(kernel_size[0], sigma[0], dtype)
    ky = _gaussian_1d(kernel_size[1], sigma[1], dtype)
    return restore(_depthwise(batch, jnp.outer(ky, kx)))


def sobel_edges(images, data_format=None):
    """Sobel gradients, stacked as ``(..., 2)`` = ``[d/dy, d/dx]`` per channel."""
    data_format = data_format_of(data_format)
    images = convert_to_tensor(images)
    if images.ndim != 4:
        raise ValueError(
            f"sobel_edges expects a batch of images (rank 4). Received {images.shape}."
        )
    batch, restore = to_batched_channels_last(images, data_format)
    sobel_x = jnp.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], batch.dtype)
    edges_y = restore(_depthwise(batch, sobel_x.T))
    edges_x = restore(_depthwise(batch, sobel_x))
    return jnp.stack([edges_y, edges_x], axis=-1)
