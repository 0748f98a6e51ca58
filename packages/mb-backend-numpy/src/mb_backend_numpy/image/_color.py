"""Color conversions: RGB to grayscale, RGB to HSV and back."""

import ml_dtypes
import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import is_float_dtype, result_type, standardize_dtype
from mb_backend_numpy.image._common import channels_axis, check_rank
from mb_backend_numpy.numpy._common import cast


def rgb_to_grayscale(images, data_format=None):
    images = to_tensor(images)
    check_rank(images)
    axis = channels_axis(data_format)
    if images.shape[axis] not in (1, 3):
        raise ValueError(
            "rgb_to_grayscale expects 3 (RGB) or 1 (grayscale) channels. "
            f"Received: images.shape={images.shape}."
        )
    if images.shape[axis] == 1:
        return images.copy()
    compute = result_type(images.dtype, float)
    weights = np.array([0.2989, 0.5870, 0.1140], dtype=compute)
    gray = np.tensordot(cast(images, compute), weights, axes=([axis], [0]))
    return cast(np.expand_dims(gray, axis), images.dtype)


def _check_float(images, name):
    dtype = standardize_dtype(images.dtype)
    if not is_float_dtype(dtype):
        raise ValueError(f"{name} expects float images. Received: images.dtype={dtype}.")
    return dtype


def rgb_to_hsv(images, data_format=None):
    images = to_tensor(images)
    check_rank(images)
    dtype = _check_float(images, "rgb_to_hsv")
    axis = channels_axis(data_format)
    eps = ml_dtypes.finfo(images.dtype).eps
    x = np.where(np.abs(images) < eps, 0.0, images.astype("float64"))
    r, g, b = (np.take(x, i, axis=axis) for i in range(3))
    value = np.maximum(np.maximum(r, g), b)
    spread = value - np.minimum(np.minimum(r, g), b)
    saturation = np.where(value > 0, spread / np.where(value > 0, value, 1.0), 0.0)
    norm = 1.0 / (6.0 * np.where(spread > 0, spread, 1.0))
    hue = np.where(value == g, norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0)
    hue = np.where(value == r, norm * (g - b), hue)
    hue = np.where(spread > 0, hue, 0.0) + (hue < 0.0)
    return cast(np.stack([hue, saturation, value], axis=axis), dtype)


def hsv_to_rgb(images, data_format=None):
    images = to_tensor(images)
    check_rank(images)
    dtype = _check_float(images, "hsv_to_rgb")
    axis = channels_axis(data_format)
    x = images.astype("float64")
    hue, saturation, value = (np.take(x, i, axis=axis) for i in range(3))
    sector = np.mod(hue, 1.0) * 6.0
    dr = np.clip(np.abs(sector - 3.0) - 1.0, 0.0, 1.0)
    dg = np.clip(2.0 - np.abs(sector - 2.0), 0.0, 1.0)
    db = np.clip(2.0 - np.abs(sector - 4.0), 0.0, 1.0)
    grey = 1.0 - saturation
    planes = [value * (grey + saturation * d) for d in (dr, dg, db)]
    return cast(np.stack(planes, axis=axis), dtype)
