"""Image files and arrays: ``load_img``, ``save_img``, ``img_to_array``, ``array_to_img``,
``smart_resize`` (``keras.utils`` / ``keras.preprocessing.image``), with Pillow."""

from __future__ import annotations

import io
import os
import pathlib
import warnings
from typing import Any

import numpy as np

from mb_data._directory.decode import pil_module, pil_to_mode
from mb_ops import config
from mb_ops import core as core_ops
from mb_ops import image as image_ops

_PIL_RESAMPLING = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _data_format(data_format: Any) -> str:
    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            "data_format must be 'channels_last' or 'channels_first'. "
            f"Received: data_format={data_format!r}."
        )
    return data_format


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image from a ``(height, width, channels)`` array (1, 3 or 4 channels).

    Args:
        x: the array (``(channels, height, width)`` with ``channels_first``).
        data_format: the array's layout; default mb's ``image_data_format``.
        scale: rescale the values to ``[0, 255]`` (min to 0, max to 255) first.
        dtype: the dtype the array is read as (default ``floatx``).

    Example:

    >>> import numpy as np
    >>> array_to_img(np.zeros((4, 5, 3)), data_format="channels_last").size
    (5, 4)
    """
    Image = pil_module()
    data_format = _data_format(data_format)
    x = np.asarray(x, dtype=dtype or config.floatx())
    if x.ndim != 3:
        raise ValueError(
            f"array_to_img expects one image of rank 3; received shape {x.shape}. "
            "Pass x[i] for one image of a batch."
        )
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    channels = x.shape[2]
    if channels == 4:
        return Image.fromarray(x.astype("uint8"), "RGBA")
    if channels == 3:
        return Image.fromarray(x.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(x) > 255:  # 32-bit gray
            return Image.fromarray(x[:, :, 0].astype("int32"), "I")
        return Image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"array_to_img supports 1, 3 or 4 channels; received {channels}.")


def img_to_array(img, data_format=None, dtype=None):
    """A PIL image as an array: ``(height, width, channels)`` (channels first if asked).

    Example:

    >>> import numpy as np
    >>> img = array_to_img(np.ones((4, 5, 1)), data_format="channels_last", scale=False)
    >>> img_to_array(img, data_format="channels_last").shape
    (4, 5, 1)
    """
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or config.floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x[None] if data_format == "channels_first" else x[..., None]
    raise ValueError(f"img_to_array: unsupported image shape {x.shape}.")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes an image array to a file (format from the suffix unless ``file_format``).

    RGBA arrays saved as JPEG are converted to RGB with a warning, as in Keras.
    Extra keyword arguments go to ``PIL.Image.save`` (e.g. ``quality=95``).
    """
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower() or None
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn(
            "The JPEG format does not support RGBA images, converting to RGB.", stacklevel=2
        )
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(
    path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False
):
    """Loads an image file as a PIL image, optionally resized (with Pillow's resampling).

    Args:
        path: a path, or an ``io.BytesIO`` holding the file.
        color_mode: ``"rgb"``, ``"rgba"`` or ``"grayscale"``.
        target_size: ``(height, width)``, or None to keep the size.
        interpolation: Pillow's resampling: ``"nearest"``, ``"bilinear"``,
            ``"bicubic"``, ``"hamming"``, ``"box"`` or ``"lanczos"``.
        keep_aspect_ratio: crop the centered window of the target's aspect ratio
            before resizing, instead of distorting.

    Example:

    ```python
    img = mb.utils.load_img("cat.jpg", target_size=(224, 224))
    x = mb.utils.img_to_array(img)[None]  # (1, 224, 224, 3)
    ```
    """
    Image = pil_module()
    if isinstance(path, io.BytesIO):
        img = Image.open(path)
    elif isinstance(path, (str, bytes, os.PathLike)):
        with open(path, "rb") as f:
            img = Image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(
            f"load_img expects a path or an io.BytesIO; received {type(path).__name__}."
        )
    channels = {"grayscale": 1, "rgb": 3, "rgba": 4}.get(color_mode)
    if channels is None:
        raise ValueError(
            f"color_mode must be 'grayscale', 'rgb' or 'rgba'. Received: {color_mode!r}."
        )
    img = pil_to_mode(img, channels)
    if target_size is None or img.size == (target_size[1], target_size[0]):
        return img
    if interpolation not in _PIL_RESAMPLING:
        raise ValueError(
            f"interpolation must be one of {', '.join(_PIL_RESAMPLING)}. "
            f"Received: {interpolation!r}."
        )
    resample = getattr(Image.Resampling, interpolation.upper())
    size = (target_size[1], target_size[0])
    if not keep_aspect_ratio:
        return img.resize(size, resample)
    width, height = img.size
    crop_h = min(height, (width * size[1]) // size[0])
    crop_w = min(width, (height * size[0]) // size[1])
    top, left = (height - crop_h) // 2, (width - crop_w) // 2
    return img.resize(size, resample, box=[left, top, left + crop_w, top + crop_h])


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """Resizes images to ``size`` without distortion: crops the largest centered window of
    the target's aspect ratio, then resizes (``keras.preprocessing.image.smart_resize``).

    Args:
        x: an image ``(height, width, channels)`` or a batch of them (rank 4), as a
            NumPy array or a tensor of the active backend.
        size: ``(height, width)``.
        interpolation: the resize's interpolation.
        data_format: ``"channels_last"`` or ``"channels_first"``.

    Returns:
        A NumPy array for NumPy input, else a backend tensor.

    Example:

    >>> import numpy as np
    >>> smart_resize(np.zeros((40, 60, 3)), (20, 20)).shape
    (20, 20, 3)
    """
    if kwargs:
        raise TypeError(f"smart_resize got unexpected keyword arguments: {list(kwargs)}.")
    if len(size) != 2:
        raise ValueError(f"smart_resize expects size=(height, width); received {size!r}.")
    img = core_ops.convert_to_tensor(x)
    shape = tuple(img.shape)
    if len(shape) not in (3, 4):
        raise ValueError(
            "smart_resize expects an image (height, width, channels) or a batch of them; "
            f"received shape {shape}."
        )
    height, width = (shape[-3], shape[-2]) if data_format == "channels_last" else shape[-2:]
    target_h, target_w = size
    crop_h = max(min(height, int(float(width * target_h) / target_w)), 1)
    crop_w = max(min(width, int(float(height * target_w) / target_h)), 1)
    top, left = int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)
    rows, cols = slice(top, top + crop_h), slice(left, left + crop_w)
    if data_format == "channels_last":
        window = (Ellipsis, rows, cols, slice(None))
    else:
        window = (Ellipsis, rows, cols)
    out = image_ops.resize(
        img[window], size=tuple(size), interpolation=interpolation, data_format=data_format
    )
    if isinstance(x, np.ndarray):
        return np.array(core_ops.convert_to_numpy(out))
    return out
