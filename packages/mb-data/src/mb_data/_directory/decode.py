"""Reading one image file into an array with Pillow (the readers without TensorFlow).

Pillow decodes; bilinear and nearest resizing are ``tf.image.resize``'s, written in
NumPy; the other interpolations use the active backend's ``image.resize`` on the
CPU. Cropping
and padding to the aspect ratio follow Keras's TensorFlow reader (``smart_resize``'s
centered window, ``tf.image.resize_with_pad``'s box), so every format yields what
Keras's default ``tf.data`` dataset yields, up to decoders' and resizers' rounding.
The result is a NumPy array of ``image_size`` in the data format: float32, or uint8
with ``interpolation="nearest"`` (as ``tf.image.resize`` leaves it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mb_ops import backends
from mb_ops import image as image_ops

INTERPOLATIONS = (
    "bilinear",
    "nearest",
    "bicubic",
    "area",
    "lanczos3",
    "lanczos5",
    "gaussian",
    "mitchellcubic",
)
_CHANNELS = {"grayscale": 1, "rgb": 3, "rgba": 4}
_PIL_MODES = {1: "L", 3: "RGB", 4: "RGBA"}


def num_channels(color_mode: str) -> int:
    if color_mode not in _CHANNELS:
        raise ValueError(
            f"color_mode must be 'rgb', 'rgba' or 'grayscale'. Received: color_mode={color_mode!r}."
        )
    return _CHANNELS[color_mode]


def pil_module() -> Any:
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError(
            "Reading images without TensorFlow needs Pillow: pip install pillow."
        ) from exc
    return Image


def pil_to_mode(img: Any, channels: int) -> Any:
    """Keras's conversion: grayscale keeps 16/32-bit gray images as they are."""
    if channels == 1:
        return img if img.mode in ("L", "I;16", "I") else img.convert("L")
    mode = _PIL_MODES[channels]
    return img if img.mode == mode else img.convert(mode)


def _center_crop(array: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Keras's ``smart_resize`` window: the largest centered crop of the target's aspect."""
    height, width = array.shape[:2]
    target_h, target_w = size
    crop_h = max(min(height, int(float(width * target_h) / target_w)), 1)
    crop_w = max(min(width, int(float(height * target_w) / target_h)), 1)
    top, left = int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)
    return array[top : top + crop_h, left : left + crop_w]


def _pad_box(shape: tuple[int, ...], size: tuple[int, int]) -> tuple[int, int, int, int]:
    """``tf.image.resize_with_pad``'s box: resized height/width and the top/left padding."""
    height, width = shape[:2]
    target_h, target_w = size
    ratio = max(width / target_w, height / target_h)
    fit_h, fit_w = height / ratio, width / ratio
    top = max(0, int(np.floor((target_h - fit_h) / 2)))
    left = max(0, int(np.floor((target_w - fit_w) / 2)))
    return int(np.floor(fit_h)), int(np.floor(fit_w)), top, left


def _bilinear_axis(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``tf.image.resize``'s bilinear sampling along one axis (half-pixel centers)."""
    scale = np.float32(n_in / n_out)
    position = (np.arange(n_out, dtype="float32") + np.float32(0.5)) * scale - np.float32(0.5)
    floor = np.floor(position)
    lower = np.maximum(floor, 0).astype("int64")
    upper = np.minimum(np.ceil(position), n_in - 1).astype("int64")
    return lower, upper, (position - floor).astype("float32")


def _nearest_axis(n_in: int, n_out: int) -> np.ndarray:
    """``tf.image.resize``'s nearest sampling along one axis (float32, as TensorFlow)."""
    position = (np.arange(n_out, dtype="float32") + np.float32(0.5)) * np.float32(n_in / n_out)
    return np.minimum(np.floor(position), n_in - 1).astype("int64")


def _resize_numpy(array: np.ndarray, size: tuple[int, int], interpolation: str) -> np.ndarray:
    """Bilinear and nearest resizing as ``tf.image.resize`` computes them, in NumPy."""
    (h, w), (out_h, out_w) = array.shape[:2], size
    if interpolation == "nearest":
        rows, cols = _nearest_axis(h, out_h), _nearest_axis(w, out_w)
        return array[rows][:, cols]
    top, bottom, dy = _bilinear_axis(h, out_h)
    left, right, dx = _bilinear_axis(w, out_w)
    dx = dx[None, :, None]
    upper = array[top][:, left] + (array[top][:, right] - array[top][:, left]) * dx
    lower = array[bottom][:, left] + (array[bottom][:, right] - array[bottom][:, left]) * dx
    return upper + (lower - upper) * dy[:, None, None]


def _resize(array: np.ndarray, size: tuple[int, int], interpolation: str) -> np.ndarray:
    """``array`` (height, width, channels) resized: bilinear and nearest in NumPy, the
    other interpolations by the active backend on the CPU (as Keras's grain reader)."""
    if interpolation in ("bilinear", "nearest"):
        # NumPy here: an engine's eager resize compiles once per image size (jax).
        return _resize_numpy(array, size, interpolation)
    core = backends.backend_module("core")
    with core.device_scope("cpu"):
        out = image_ops.resize(
            array, size=tuple(size), interpolation=interpolation, data_format="channels_last"
        )
        return np.asarray(core.convert_to_numpy(out), dtype="float32")


def load_image_pil(
    path: str,
    image_size: tuple[int, int],
    channels: int,
    interpolation: str,
    data_format: str,
    crop_to_aspect_ratio: bool = False,
    pad_to_aspect_ratio: bool = False,
) -> np.ndarray:
    """What ``format="tf"`` yields for one file, read with Pillow instead of TensorFlow."""
    Image = pil_module()
    with Image.open(path) as img:
        if channels == 1 and img.format == "JPEG":
            img.draft("L", img.size)  # the decoder's own gray, as TensorFlow's
        decoded = np.array(pil_to_mode(img, channels))
    array = decoded.astype("float32")
    if array.ndim == 2:
        array = array[..., None]
    if crop_to_aspect_ratio:
        array = _resize(_center_crop(array, image_size), image_size, interpolation)
    elif pad_to_aspect_ratio:
        fit_h, fit_w, top, left = _pad_box(array.shape, image_size)
        padded = np.zeros((*image_size, channels), dtype="float32")
        padded[top : top + fit_h, left : left + fit_w] = _resize(
            array, (fit_h, fit_w), interpolation
        )
        array = padded
    else:
        array = _resize(array, image_size, interpolation)
    if interpolation == "nearest" and decoded.dtype == np.uint8:
        # tf.image.resize keeps the decoded dtype for nearest: Keras's datasets then
        # yield uint8 images, and so does every format here.
        array = array.astype("uint8")
    return array.transpose(2, 0, 1) if data_format == "channels_first" else array
