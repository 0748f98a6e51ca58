"""Color conversions: RGB to grayscale, RGB to HSV and back."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import result_type, standardize_dtype
from mb_backend_tensorflow.image._common import check_images, to_last


def rgb_to_grayscale(images, data_format=None):
    images = convert_to_tensor(images)
    check_images(images, "rgb_to_grayscale")
    images, undo = to_last(images, data_format)
    if images.shape[-1] not in (1, 3):
        raise ValueError(
            "rgb_to_grayscale needs 3 (RGB) or 1 (grayscale) channels. Received shape "
            f"{images.shape.as_list()} (after moving channels last)."
        )
    if images.shape[-1] == 1:
        return undo(tf.identity(images))
    dtype = images.dtype
    compute = result_type(standardize_dtype(dtype), float)
    weights = tf.constant([0.2989, 0.5870, 0.1140], compute)
    gray = tf.tensordot(tf.cast(images, compute), weights, axes=[[-1], [0]])[..., None]
    return undo(tf.cast(gray, dtype))


def _float_images(images, name):
    images = convert_to_tensor(images)
    check_images(images, name)
    if not images.dtype.is_floating:
        raise ValueError(
            f"{name} needs float images. Received dtype {standardize_dtype(images.dtype)}."
        )
    return images


def rgb_to_hsv(images, data_format=None):
    images, undo = to_last(_float_images(images, "rgb_to_hsv"), data_format)
    return undo(tf.image.rgb_to_hsv(images))


def hsv_to_rgb(images, data_format=None):
    images, undo = to_last(_float_images(images, "hsv_to_rgb"), data_format)
    return undo(tf.image.hsv_to_rgb(images))
