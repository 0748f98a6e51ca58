"""The host-side pieces of ``image.resize`` and ``scale_and_translate``: the
argument checks, interpolation kernels, per-axis weight matrices, nearest indices
and the crop/pad box for a target aspect ratio. Each engine applies them its own
way; the argument checks and the aspect-ratio boxes are pure Python over static
shapes, so every backend whose image shapes are known uses them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mb_ops.numpy_shaped._conv import data_format as standardize_data_format

RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic")
"""The interpolations every backend's ``image.resize`` supports (tensorflow and
torch add ``"area"``)."""

SCALE_AND_TRANSLATE_METHODS = (
    "linear",
    "bilinear",
    "trilinear",
    "cubic",
    "bicubic",
    "tricubic",
    "lanczos3",
    "lanczos5",
)


def resize_kernels(xp: Any) -> dict[str, Callable[[Any], Any]]:
    """Interpolation method -> its kernel over (non-negative) distances, as in JAX's
    ``scale_and_translate``, written with ``xp``'s ``where``, ``sin``, ``abs``,
    ``maximum``, ``zeros_like`` and ``ones_like`` (``numpy``, ``tf``, ``torch``).

    >>> kernels = resize_kernels(np)
    >>> kernels["linear"](np.array([0.0, 0.25, 1.5])).tolist()
    [1.0, 0.75, 0.0]
    """

    def triangle(x: Any) -> Any:
        return xp.maximum(xp.zeros_like(x), 1.0 - xp.abs(x))

    def keys_cubic(x: Any) -> Any:
        # Keys' cubic convolution kernel with a = -0.5.
        out = ((1.5 * x - 2.5) * x) * x + 1.0
        out = xp.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
        return xp.where(x >= 2.0, xp.zeros_like(x), out)

    def lanczos(radius: float) -> Callable[[Any], Any]:
        def kernel(x: Any) -> Any:
            y = radius * xp.sin(np.pi * x) * xp.sin(np.pi * x / radius)
            safe = xp.where(x != 0, np.pi**2 * x**2, xp.ones_like(x))
            out = xp.where(x > 1e-3, y / safe, xp.ones_like(x))
            return xp.where(x > radius, xp.zeros_like(x), out)

        return kernel

    return {
        "linear": triangle,
        "bilinear": triangle,
        "trilinear": triangle,
        "cubic": keys_cubic,
        "bicubic": keys_cubic,
        "tricubic": keys_cubic,
        "lanczos3": lanczos(3.0),
        "lanczos5": lanczos(5.0),
    }


KERNELS: dict[str, Callable[[np.ndarray], np.ndarray]] = resize_kernels(np)
"""Interpolation method -> its kernel over distances, on NumPy arrays."""


def interpolation_weights(
    in_size: int, out_size: int, scale: float, translation: float, kernel: Any, antialias: bool
) -> np.ndarray:
    """The (in_size, out_size) matrix mapping one axis of the input to the output.

    >>> interpolation_weights(2, 4, 2.0, 0.0, KERNELS["linear"], False).round(2).tolist()
    [[1.0, 0.75, 0.25, 0.0], [0.0, 0.25, 0.75, 1.0]]
    """
    inv_scale = 1.0 / scale
    kernel_scale = max(inv_scale, 1.0) if antialias else 1.0
    sample = (np.arange(out_size) + 0.5) * inv_scale - translation * inv_scale - 0.5
    w = kernel(np.abs(sample[None, :] - np.arange(in_size)[:, None]) / kernel_scale)
    total = np.sum(w, axis=0, keepdims=True)
    w = np.where(
        np.abs(total) > 1000.0 * np.finfo(np.float32).eps,
        w / np.where(total != 0, total, 1.0),
        0.0,
    )
    inside = (sample >= -0.5) & (sample <= in_size - 0.5)
    return np.where(inside[None, :], w, 0.0)


def nearest_indices(in_size: int, out_size: int) -> np.ndarray:
    """The input index each output position of a nearest resize takes (half-pixel centres)."""
    centres = (np.arange(out_size, dtype=np.float32) + 0.5) * in_size / out_size
    return np.floor(centres).astype(np.int64)


def aspect_crop(
    shape: Any, target: Any, channels_last: bool
) -> tuple[int, tuple[int, int], tuple[int, int]]:
    """``crop_to_aspect_ratio``: the height axis and the (start, stop) rows and columns
    of the centred crop with the aspect ratio of ``target`` (height, width)."""
    h_axis = len(shape) - 3 if channels_last else len(shape) - 2
    height, width = shape[h_axis], shape[h_axis + 1]
    th, tw = target
    ch = max(min(height, int(width * th / tw)), 1)
    cw = max(min(width, int(height * tw / th)), 1)
    top, left = int((height - ch) / 2), int((width - cw) / 2)
    return h_axis, (top, top + ch), (left, left + cw)


def aspect_pad(shape: Any, target: Any, channels_last: bool) -> list[int]:
    """``pad_to_aspect_ratio``: per axis, the padding on each side that gives the
    aspect ratio of ``target`` (height, width); rows or columns, never both."""
    h_axis = len(shape) - 3 if channels_last else len(shape) - 2
    height, width = shape[h_axis], shape[h_axis + 1]
    th, tw = target
    ph = max(height, int(width * th / tw))
    pw = max(width, int(height * tw / th))
    top, left = int((ph - height) / 2), int((pw - width) / 2)
    pads = [0] * len(shape)
    if top > 0:
        pads[h_axis] = top
    elif left > 0:
        pads[h_axis + 1] = left
    return pads


def check_resize_arguments(
    size: Any,
    interpolation: str,
    fill_mode: str,
    crop_to_aspect_ratio: bool,
    pad_to_aspect_ratio: bool,
    interpolations: tuple[str, ...] = RESIZE_INTERPOLATIONS,
) -> None:
    """The contract's ``image.resize`` argument checks, with the fix in each message.
    ``interpolations``: the methods the calling backend supports.

    >>> check_resize_arguments((2, 2), "area", "constant", False, False)
    Traceback (most recent call last):
    ...
    ValueError: resize interpolation must be one of ('bilinear', 'nearest', 'lanczos3', 'lanczos5', 'bicubic'). Received: interpolation='area'.
    >>> check_resize_arguments((2, 2), "area", "constant", True, True, ("area",))
    Traceback (most recent call last):
    ...
    ValueError: Only one of crop_to_aspect_ratio and pad_to_aspect_ratio can be True.
    """  # noqa: E501
    if interpolation not in interpolations:
        raise ValueError(
            f"resize interpolation must be one of {interpolations}. "
            f"Received: interpolation={interpolation!r}."
        )
    if fill_mode != "constant":
        raise ValueError(f"resize supports only fill_mode='constant'. Received: {fill_mode!r}.")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of crop_to_aspect_ratio and pad_to_aspect_ratio can be True.")
    if len(size) != 2:
        raise ValueError(f"size must be (height, width). Received: size={size!r}.")


def resized_shape(shape: Any, size: Any, channels_last: bool) -> list[int]:
    """`shape` (rank 3 or 4) with its height and width replaced by `size`.

    >>> resized_shape((2, 8, 6, 3), (4, 3), channels_last=True)
    [2, 4, 3, 3]
    """
    out = list(shape)
    h_axis = len(out) - 3 if channels_last else len(out) - 2
    out[h_axis], out[h_axis + 1] = int(size[0]), int(size[1])
    return out


def resized_axes(shape: Any, out_shape: Any) -> tuple[list[int], list[float]]:
    """The axes a resize from ``shape`` to ``out_shape`` changes, and the scale of each.

    >>> resized_axes((2, 8, 6, 3), (2, 4, 6, 3))
    ([1], [0.5])
    """
    dims = [d for d in range(len(shape)) if shape[d] != out_shape[d]]
    return dims, [out_shape[d] / shape[d] if shape[d] else 1.0 for d in dims]


def check_scale_and_translate_method(method: str) -> None:
    """Refuses a ``scale_and_translate`` method outside ``SCALE_AND_TRANSLATE_METHODS``."""
    if method not in SCALE_AND_TRANSLATE_METHODS:
        raise ValueError(
            f"scale_and_translate method must be one of {SCALE_AND_TRANSLATE_METHODS}. "
            f"Received: method={method!r}."
        )


def resize_function(
    to_tensor: Callable[[Any], Any],
    check_rank: Callable[[Any], None],
    crop: Callable[[Any, int, tuple[int, int], tuple[int, int]], Any],
    pad: Callable[[Any, list[int], Any], Any],
    nearest: Callable[[Any, list[int]], Any],
    resample: Callable[..., Any],
) -> Any:
    """The contract's ``image.resize`` of a NumPy-shaped backend, from its engine's pieces.

    Args:
        to_tensor: the backend's conversion of the images to its tensor.
        check_rank: refuses images that are not rank 3 or 4.
        crop: ``crop(images, h_axis, (top, bottom), (left, right))``, the centred crop
            of ``crop_to_aspect_ratio`` (from ``aspect_crop``).
        pad: ``pad(images, pads, fill_value)``, the same padding ``pads[axis]`` on both
            sides of each axis (``pad_to_aspect_ratio``, from ``aspect_pad``).
        nearest: ``nearest(images, shape)``, the ``"nearest"`` resize to ``shape``.
        resample: ``resample(images, shape, dims, scales, interpolation, antialias)``,
            the smooth resize (``KERNELS[interpolation]``) of axes ``dims`` by ``scales``.
    """

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
        """Resize images to ``size`` (height, width)."""
        channels_last = standardize_data_format(data_format) == "channels_last"
        check_resize_arguments(
            size, interpolation, fill_mode, crop_to_aspect_ratio, pad_to_aspect_ratio
        )
        images = to_tensor(images)
        check_rank(images)
        if crop_to_aspect_ratio:
            h_axis, rows, cols = aspect_crop(images.shape, tuple(size), channels_last)
            images = crop(images, h_axis, rows, cols)
        elif pad_to_aspect_ratio:
            images = pad(images, aspect_pad(images.shape, tuple(size), channels_last), fill_value)
        shape = resized_shape(images.shape, size, channels_last)
        if interpolation == "nearest":
            return nearest(images, shape)
        dims, scales = resized_axes(images.shape, shape)
        return resample(images, shape, dims, scales, interpolation, antialias)

    return resize
