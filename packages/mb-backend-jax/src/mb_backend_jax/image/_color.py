"""Color conversions: RGB to grayscale, RGB to HSV and back."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.image._common import check_rank, data_format_of
from mb_ops import dtypes


def _channel_axis(data_format):
    return -1 if data_format == "channels_last" else -3


def rgb_to_grayscale(images, data_format=None):
    """Luma (ITU-R 601 weights) of RGB images; 1-channel images are returned as they are."""
    images = convert_to_tensor(images)
    axis = _channel_axis(data_format_of(data_format))
    check_rank(images, "rgb_to_grayscale")
    if images.shape[axis] not in (1, 3):
        raise ValueError(
            "rgb_to_grayscale expects 3 (RGB) or 1 (grayscale) channels. "
            f"Received shape {images.shape}."
        )
    if images.shape[axis] == 1:
        return images
    compute = dtypes.result_type(images.dtype, float)
    weights = jnp.asarray([0.2989, 0.5870, 0.1140], compute)
    gray = jnp.tensordot(images.astype(compute), weights, axes=(axis, -1))
    return jnp.expand_dims(gray, axis).astype(images.dtype)


def _split_channels(images, name, data_format):
    images = convert_to_tensor(images)
    check_rank(images, name)
    if not dtypes.is_float_dtype(images.dtype):
        raise ValueError(f"{name} expects float images. Received dtype {images.dtype}.")
    axis = _channel_axis(data_format_of(data_format))
    return [jnp.squeeze(p, axis) for p in jnp.split(images, 3, axis)], axis, images.dtype


def rgb_to_hsv(images, data_format=None):
    """RGB in [0, 1] to HSV in [0, 1]."""
    (r, g, b), axis, dtype = _split_channels(images, "rgb_to_hsv", data_format)
    eps = jnp.finfo(dtype).eps
    r, g, b = (jnp.where(jnp.abs(c) < eps, 0.0, c) for c in (r, g, b))
    value = jnp.maximum(jnp.maximum(r, g), b)
    spread = value - jnp.minimum(jnp.minimum(r, g), b)
    saturation = jnp.where(value > 0, spread / jnp.where(value > 0, value, 1.0), 0.0)
    norm = 1.0 / (6.0 * jnp.where(spread > 0, spread, 1.0))
    hue = jnp.where(value == g, norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0)
    hue = jnp.where(value == r, norm * (g - b), hue)
    hue = jnp.where(spread > 0, hue, 0.0) + (hue < 0.0).astype(hue.dtype)
    return jnp.stack([hue, saturation, value], axis=axis).astype(dtype)


def hsv_to_rgb(images, data_format=None):
    """HSV in [0, 1] to RGB in [0, 1]."""
    (h, s, v), axis, dtype = _split_channels(images, "hsv_to_rgb", data_format)
    sector = jnp.mod(h, 1.0) * 6.0
    dr = jnp.clip(jnp.abs(sector - 3.0) - 1.0, 0.0, 1.0)
    dg = jnp.clip(2.0 - jnp.abs(sector - 2.0), 0.0, 1.0)
    db = jnp.clip(2.0 - jnp.abs(sector - 4.0), 0.0, 1.0)
    rgb = [v * (1.0 - s + s * d) for d in (dr, dg, db)]
    return jnp.stack(rgb, axis=axis).astype(dtype)
