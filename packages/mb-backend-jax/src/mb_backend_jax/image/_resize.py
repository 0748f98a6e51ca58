"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate."""

import jax
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.image._common import (
    SCALE_AND_TRANSLATE_METHODS,
    check_choice,
    check_rank,
    data_format_of,
    to_batched_channels_last,
)
from mb_ops import numpy_shaped


def _crop_or_pad(batch, target, crop, pad, fill_value):
    """The (N, H, W, C) ``batch`` cropped or padded to the aspect ratio of ``target``."""
    if crop:
        _, (top, bottom), (left, right) = numpy_shaped.aspect_crop(batch.shape, target, True)
        return batch[:, top:bottom, left:right, :]
    if pad:
        pads = numpy_shaped.aspect_pad(batch.shape, target, True)
        if any(pads):
            return jnp.pad(batch, [(p, p) for p in pads], constant_values=fill_value)
    return batch


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
    numpy_shaped.check_resize_arguments(
        size, interpolation, fill_mode, crop_to_aspect_ratio, pad_to_aspect_ratio
    )
    images = convert_to_tensor(images)
    check_rank(images, "resize")
    batch, restore = to_batched_channels_last(images, data_format)
    target_h, target_w = (int(s) for s in size)
    batch = _crop_or_pad(
        batch, (target_h, target_w), crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value
    )
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
