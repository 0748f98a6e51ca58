"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import is_int_dtype, result_type, standardize_dtype
from mb_backend_tensorflow.image._common import batched, check_images, to_last
from mb_ops import numpy_shaped

RESIZE_INTERPOLATIONS = (*numpy_shaped.RESIZE_INTERPOLATIONS, "area")


def _crop_or_pad(images, size, crop, fill_value):
    """Center-crop or pad the (batched, NHWC) images to the target aspect ratio."""
    height, width = tf.shape(images)[1], tf.shape(images)[2]
    th, tw = size
    want_h = tf.cast(tf.cast(width * th, "float32") / tw, "int32")
    want_w = tf.cast(tf.cast(height * tw, "float32") / th, "int32")
    if crop:
        new_h = tf.maximum(tf.minimum(height, want_h), 1)
        new_w = tf.maximum(tf.minimum(width, want_w), 1)
        top, left = (height - new_h) // 2, (width - new_w) // 2
        return images[:, top : top + new_h, left : left + new_w, :]
    new_h, new_w = tf.maximum(height, want_h), tf.maximum(width, want_w)
    top, left = (new_h - height) // 2, (new_w - width) // 2
    paddings = [[0, 0], [top, top], [left, left], [0, 0]]
    return tf.pad(images, paddings, constant_values=tf.cast(fill_value, images.dtype))


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
    images = convert_to_tensor(images)
    check_images(images, "resize")
    numpy_shaped.check_resize_arguments(
        size,
        interpolation,
        fill_mode,
        crop_to_aspect_ratio,
        pad_to_aspect_ratio,
        RESIZE_INTERPOLATIONS,
    )
    images, undo_layout = to_last(images, data_format)
    images, undo_batch = batched(images)
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        images = _crop_or_pad(images, tuple(size), crop_to_aspect_ratio, fill_value)
    out = tf.image.resize(images, tuple(size), method=interpolation, antialias=antialias)
    if interpolation == "nearest" or images.dtype.is_floating:
        # tf.image.resize computes (and returns) float32; float16/bfloat16 images keep
        # their dtype, as on the other backends.
        out = tf.cast(out, images.dtype)
    return undo_layout(undo_batch(out))


_KERNELS = numpy_shaped.resize_kernels(tf)


def _weights(in_size, out_size, scale, translation, kernel, antialias):
    """(in_size, out_size) resampling weights of one axis, as in jax.image."""
    dtype = scale.dtype
    inv = 1.0 / scale
    kernel_scale = tf.maximum(inv, 1.0) if antialias else tf.ones_like(inv)
    sample = (tf.range(out_size, dtype=dtype) + 0.5) * inv - translation * inv - 0.5
    dist = tf.abs(sample[None, :] - tf.range(in_size, dtype=dtype)[:, None]) / kernel_scale
    w = kernel(dist)
    total = tf.reduce_sum(w, axis=0, keepdims=True)
    w = tf.where(
        tf.abs(total) > 1000.0 * float(np.finfo(np.float32).eps),
        w / tf.where(total != 0, total, tf.ones_like(total)),
        tf.zeros_like(w),
    )
    inside = (sample >= -0.5) & (sample <= tf.cast(in_size, dtype) - 0.5)
    return tf.where(inside[None, :], w, tf.zeros_like(w))


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    numpy_shaped.check_scale_and_translate_method(method)
    if method in ("linear", "bilinear", "trilinear"):
        method = "linear"
    elif method in ("cubic", "bicubic", "tricubic"):
        method = "cubic"
    x = convert_to_tensor(images)
    scale, translation = convert_to_tensor(scale), convert_to_tensor(translation)
    dtype = result_type(standardize_dtype(scale.dtype), standardize_dtype(translation.dtype))
    scale, translation = tf.cast(scale, dtype), tf.cast(translation, dtype)
    is_int = is_int_dtype(standardize_dtype(x.dtype))
    out = tf.cast(x, "float32") if is_int else x
    for i, d in enumerate(spatial_dims):
        d = d % x.shape.rank
        w = _weights(
            tf.shape(x)[d], output_shape[d], scale[i], translation[i], _KERNELS[method], antialias
        )
        out = tf.tensordot(out, tf.cast(w, out.dtype), axes=[[d], [0]])
        out = tf.experimental.numpy.moveaxis(out, -1, d)
    if is_int:
        lo, hi = tf.cast(tf.reduce_min(x), out.dtype), tf.cast(tf.reduce_max(x), out.dtype)
        out = tf.cast(tf.clip_by_value(tf.round(out), lo, hi), x.dtype)
    return out
