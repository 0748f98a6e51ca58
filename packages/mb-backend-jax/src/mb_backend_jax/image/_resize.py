"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate."""

import jax
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.image._common import (
    RESIZE_INTERPOLATIONS,
    SCALE_AND_TRANSLATE_METHODS,
    check_choice,
    check_rank,
    data_format_of,
    to_batched_channels_last,
)


def _crop_to_aspect(images, target_h, target_w):
    height, width = images.shape[1:3]
    crop_h = max(min(height, int(width * target_h / target_w)), 1)
    crop_w = max(min(width, int(height * target_w / target_h)), 1)
    top, left = (height - crop_h) // 2, (width - crop_w) // 2
    return images[:, top : top + crop_h, left : left + crop_w, :]


def _pad_to_aspect(images, target_h, target_w, fill_value):
    height, width = images.shape[1:3]
    pad_h = max(height, int(width * target_h / target_w))
    pad_w = max(width, int(height * target_w / target_h))
    top, left = (pad_h - height) // 2, (pad_w - width) // 2
    if top > 0:
        widths = ((0, 0), (top, top), (0, 0), (0, 0))
    elif left > 0:
        widths = ((0, 0), (0, 0), (left, left), (0, 0))
    else:
        return images
    return jnp.pad(images, widths, constant_values=fill_value)


def resize(
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
):
    """Resize images to ``size = (height, width)`` (``jax.image.resize``)."""
    data_format = data_format_of(data_format)
    check_choice(interpolation, RESIZE_INTERPOLATIONS, "interpolation", "resize")
    if fill_mode != "constant":
        raise ValueError(f"resize supports only fill_mode='constant'. Received {fill_mode!r}.")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("resize accepts crop_to_aspect_ratio or pad_to_aspect_ratio, not both.")
    if len(size) != 2:
        raise ValueError(f"resize expects size=(height, width). Received size={size}.")
    images = convert_to_tensor(images)
    check_rank(images, "resize")
    batch, restore = to_batched_channels_last(images, data_format)
    target_h, target_w = (int(s) for s in size)
    if crop_to_aspect_ratio:
        batch = _crop_to_aspect(batch, target_h, target_w)
    elif pad_to_aspect_ratio:
        batch = _pad_to_aspect(batch, target_h, target_w, fill_value)
    shape = (batch.shape[0], target_h, target_w, batch.shape[-1])
    return restore(jax.image.resize(batch, shape, method=interpolation, antialias=antialias))


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    """``jax.image.scale_and_translate``: resample ``spatial_dims`` with scale and offset."""
    check_choice(method, SCALE_AND_TRANSLATE_METHODS, "method", "scale_and_translate")
    return jax.image.scale_and_translate(
        convert_to_tensor(images),
        output_shape,
        spatial_dims,
        convert_to_tensor(scale),
        convert_to_tensor(translation),
        method,
        antialias,
    )
