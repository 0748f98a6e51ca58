"""Color conversions: RGB to grayscale, RGB to HSV and back."""

import torch

from mb_backend_torch.nn._conv import data_format_of
from mb_backend_torch.numpy._common import t


def _check_rank(images, op):
    if images.ndim not in (3, 4):
        raise ValueError(
            f"{op} expects images of rank 3 (one image) or 4 (a batch). "
            f"Received shape {tuple(images.shape)}."
        )


def _channel_axis(data_format):
    return -1 if data_format_of(data_format) == "channels_last" else -3


def rgb_to_grayscale(images, data_format=None):
    images = t(images)
    _check_rank(images, "rgb_to_grayscale")
    axis = _channel_axis(data_format)
    if images.shape[axis] not in (1, 3):
        raise ValueError(
            "rgb_to_grayscale expects 3 (RGB) or 1 (grayscale) channels. "
            f"Received shape {tuple(images.shape)}."
        )
    if images.shape[axis] == 1:
        return images.clone()
    r, g, b = images.unbind(dim=axis)
    gray = 0.2989 * r + 0.587 * g + 0.114 * b
    return gray.to(images.dtype).unsqueeze(axis)


def _float_images(images, op):
    images = t(images)
    _check_rank(images, op)
    if not images.dtype.is_floating_point:
        raise ValueError(f"{op} expects float images. Received dtype {images.dtype}.")
    return images


def rgb_to_hsv(images, data_format=None):
    images = _float_images(images, "rgb_to_hsv")
    axis = _channel_axis(data_format)
    eps = torch.finfo(images.dtype).eps
    images = torch.where(images.abs() < eps, torch.zeros_like(images), images)
    r, g, b = images.unbind(dim=axis)
    value = torch.maximum(torch.maximum(r, g), b)
    minimum = torch.minimum(torch.minimum(r, g), b)
    spread = value - minimum
    saturation = torch.where(value > 0, spread / torch.where(value > 0, value, 1.0), 0.0)
    norm = 1.0 / (6.0 * torch.where(spread > 0, spread, 1.0))
    hue = torch.where(value == g, norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0)
    hue = torch.where(value == r, norm * (g - b), hue)
    hue = torch.where(spread > 0, hue, 0.0) + (hue < 0.0).to(hue.dtype)
    return torch.stack([hue, saturation, value], dim=axis).to(images.dtype)


def hsv_to_rgb(images, data_format=None):
    images = _float_images(images, "hsv_to_rgb")
    axis = _channel_axis(data_format)
    hue, saturation, value = images.unbind(dim=axis)
    dh = torch.remainder(hue, 1.0) * 6.0
    dr = torch.clamp((dh - 3.0).abs() - 1.0, 0.0, 1.0)
    dg = torch.clamp(2.0 - (dh - 2.0).abs(), 0.0, 1.0)
    db = torch.clamp(2.0 - (dh - 4.0).abs(), 0.0, 1.0)
    one_minus_s = 1.0 - saturation
    planes = [value * (one_minus_s + saturation * d) for d in (dr, dg, db)]
    return torch.stack(planes, dim=axis).to(images.dtype)
