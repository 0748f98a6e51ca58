"""Image ops (``keras.ops.image``) of the backend contract; crops, pads, patches and SSIM,
written over other ops, are in ``image_composed``."""

from __future__ import annotations

from typing import Any

from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import float_dtype, fmt, shape_of, std_dtype, tensor
from mb_ops._ops.nn_conv import data_format_of


def _image_axes(op_name: str, images: Any, data_format: Any, ranks=(3, 4)) -> tuple:
    s = shape_of(images)
    if len(s) not in ranks:
        raise ValueError(
            f"{op_name}: expected images of rank {' or '.join(map(str, ranks))} "
            f"((batch,) height, width, channels), received shape {fmt(s)}."
        )
    fmt_ = data_format_of(data_format)
    spatial_start = len(s) - 3 + (1 if fmt_ == "channels_first" else 0)
    return s, fmt_, spatial_start


def _with_spatial(s: tuple, start: int, new: Any) -> tuple:
    out = list(s)
    out[start : start + len(new)] = list(new)
    return tuple(out)


def _channel_axis(s: tuple, fmt_: str) -> int:
    return len(s) - 1 if fmt_ == "channels_last" else len(s) - 3


def _same_image_spec(op_name: str, images: Any, *args: Any) -> Any:
    s = shape_of(images)
    if len(s) not in (3, 4):
        raise ValueError(f"{op_name}: expected images of rank 3 or 4, received shape {fmt(s)}.")
    return tensor(s, std_dtype(images))


def _float_image_spec(op_name: str, images: Any, data_format: Any = None) -> Any:
    s, fmt_, _ = _image_axes(op_name, images, data_format)
    if s[_channel_axis(s, fmt_)] not in (3, None):
        raise ValueError(f"{op_name}: expected 3 channels, received shape {fmt(s)}.")
    return tensor(s, float_dtype(std_dtype(images)))


@op(_float_image_spec, "image")
def rgb_to_hsv(images, data_format=None):
    """Convert RGB images to HSV.

    Args:
        images: a float tensor of RGB images, rank 3 (one image) or 4 (a batch), values in
            ``[0, 1]``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor shaped as ``images``: hue, saturation and value, each in ``[0, 1]``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> red_green = np.array([[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]], "float32")
    >>> hsv = ops.image.rgb_to_hsv(red_green)
    >>> ops.convert_to_numpy(hsv).astype("float64").round(4).tolist()
    [[[[0.0, 1.0, 1.0], [0.3333, 1.0, 1.0]]]]
    """


@op(_float_image_spec, "image")
def hsv_to_rgb(images, data_format=None):
    """Convert HSV images to RGB.

    Args:
        images: a float tensor of HSV images, rank 3 or 4, each component in ``[0, 1]``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor shaped as ``images``: red, green and blue in ``[0, 1]``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> blue = np.array([[[[2 / 3, 1.0, 1.0]]]], "float32")
    >>> ops.convert_to_numpy(ops.image.hsv_to_rgb(blue)).astype("float64").round(4).tolist()
    [[[[0.0, 0.0, 1.0]]]]
    """


def _grayscale_spec(op_name: str, images: Any, data_format: Any = None) -> Any:
    s, fmt_, _ = _image_axes(op_name, images, data_format)
    out = list(s)
    out[_channel_axis(s, fmt_)] = 1
    return tensor(out, std_dtype(images))


@op(_grayscale_spec, "image")
def rgb_to_grayscale(images, data_format=None):
    """Convert RGB images to grayscale (one channel).

    Args:
        images: a tensor of RGB images, rank 3 or 4.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor with one channel: ``0.2989 R + 0.587 G + 0.114 B``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> red_green = np.array([[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]], "float32")
    >>> gray = ops.image.rgb_to_grayscale(red_green)
    >>> ops.convert_to_numpy(gray).astype("float64").round(4).tolist()
    [[[[0.2989], [0.587]]]]
    """


def _resize_spec(
    op_name,
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
) -> Any:
    s, _, start = _image_axes(op_name, images, data_format)
    if len(size) != 2:
        raise ValueError(f"{op_name}: size must be (height, width), received {size!r}.")
    return tensor(_with_spatial(s, start, size), std_dtype(images))


@op(_resize_spec, "image")
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
    """Resize images to ``size`` (height, width).

    Args:
        images: a tensor of images, rank 3 or 4.
        size: a pair ``(height, width)``: the output's spatial size.
        interpolation: ``"nearest"``, ``"bilinear"``, ``"bicubic"``, ``"lanczos3"``,
            ``"lanczos5"`` or ``"area"``.
        antialias: whether to low-pass filter when downsampling.
        crop_to_aspect_ratio: whether to crop the centre to the output's aspect ratio first.
        pad_to_aspect_ratio: whether to pad to the output's aspect ratio first.
        fill_mode: how the padding is filled (``"constant"``).
        fill_value: the padding's value.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor with spatial size ``size`` (pixel centres aligned as in Keras and TF 2).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> image = np.arange(4, dtype="float32").reshape(1, 2, 2, 1)
    >>> big = ops.image.resize(image, (4, 4), interpolation="nearest")
    >>> ops.convert_to_numpy(big)[0, :, :, 0].tolist()
    [[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [2.0, 2.0, 3.0, 3.0]]
    >>> ops.convert_to_numpy(ops.image.resize(image, (3, 3)))[0, :, :, 0].tolist()
    [[0.0, 0.5, 1.0], [1.0, 1.5, 2.0], [2.0, 2.5, 3.0]]
    """


@op(_same_image_spec, "image")
def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    """Apply affine (or projective) transforms given by 8 parameters per image.

    Args:
        images: a tensor of images, rank 3 or 4.
        transform: a tensor ``(8,)`` or ``(batch, 8)``: ``[a0, a1, a2, b0, b1, b2, c0, c1]``
            maps each output point ``(x, y)`` to the input point
            ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``.
        interpolation: ``"nearest"`` or ``"bilinear"``.
        fill_mode: how points outside the input are filled: ``"constant"``, ``"nearest"``,
            ``"wrap"``, ``"mirror"`` or ``"reflect"``.
        fill_value: the value for ``"constant"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor shaped as ``images``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> image = np.arange(9, dtype="float32").reshape(1, 3, 3, 1)
    >>> shift_right = np.array([1, 0, -1, 0, 1, 0, 0, 0], "float32")
    >>> out = ops.image.affine_transform(image, shift_right, interpolation="nearest")
    >>> ops.convert_to_numpy(out)[0, :, :, 0].tolist()
    [[0.0, 0.0, 1.0], [0.0, 3.0, 4.0], [0.0, 6.0, 7.0]]
    """


@op(_same_image_spec, "image")
def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    """Apply perspective transforms mapping ``start_points`` to ``end_points``.

    Args:
        images: a tensor of images, rank 3 or 4.
        start_points: a tensor ``(4, 2)`` or ``(batch, 4, 2)``: four ``(x, y)`` points of
            the input.
        end_points: the same shape: where those four points go in the output.
        interpolation: ``"nearest"`` or ``"bilinear"``.
        fill_value: the value of output points that come from outside the input.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor shaped as ``images``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> image = np.arange(9, dtype="float32").reshape(1, 3, 3, 1)
    >>> corners = np.array([[[0, 0], [2, 0], [2, 2], [0, 2]]], "float32")
    >>> out = ops.image.perspective_transform(
    ...     image, corners, corners + [1, 0], interpolation="nearest"
    ... )
    >>> ops.convert_to_numpy(out)[0, :, :, 0].tolist()
    [[0.0, 0.0, 1.0], [0.0, 3.0, 4.0], [0.0, 6.0, 7.0]]
    """


@op(_same_image_spec, "image")
def elastic_transform(
    images,
    alpha=20.0,
    sigma=5.0,
    interpolation="bilinear",
    fill_mode="reflect",
    fill_value=0.0,
    seed=None,
    data_format=None,
):
    """Random elastic deformation of images.

    A random displacement field, smoothed by a Gaussian of ``sigma`` and scaled by
    ``alpha``, moves every pixel.

    Args:
        images: a tensor of images, rank 3 or 4.
        alpha: the displacements' scale, in pixels.
        sigma: the standard deviation of the smoothing Gaussian, in pixels.
        interpolation: ``"nearest"`` or ``"bilinear"``.
        fill_mode: how points outside the input are filled (see ``affine_transform``).
        fill_value: the value for ``"constant"``.
        seed: an int, a ``SeedGenerator`` or None.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor shaped as ``images``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.image.elastic_transform(np.ones((1, 8, 8, 1), "float32"), seed=1)
    >>> ops.shape(out)
    (1, 8, 8, 1)
    """


@op(_same_image_spec, "image")
def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Gaussian blur.

    Args:
        images: a tensor of images, rank 3 or 4.
        kernel_size: a pair ``(height, width)`` of the kernel.
        sigma: a pair: the standard deviation of the Gaussian along each axis.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor shaped as ``images``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> dot = np.zeros((1, 5, 5, 1), "float32")
    >>> dot[0, 2, 2, 0] = 1.0
    >>> out = ops.image.gaussian_blur(dot, (3, 3), (1.0, 1.0))
    >>> ops.convert_to_numpy(out)[0, 1:4, 1:4, 0].astype("float64").round(4).tolist()
    [[0.0751, 0.1238, 0.0751], [0.1238, 0.2042, 0.1238], [0.0751, 0.1238, 0.0751]]
    """


def _sobel_spec(op_name: str, images: Any, data_format: Any = None) -> Any:
    s = shape_of(images)
    if len(s) != 4:
        raise ValueError(f"{op_name}: expected a batch of images (rank 4), received {fmt(s)}.")
    return tensor((*s, 2), std_dtype(images))


@op(_sobel_spec, "image")
def sobel_edges(images, data_format=None):
    """Sobel gradients (dy, dx) in a new last axis.

    Args:
        images: a tensor of images ``(batch, height, width, channels)``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor ``(batch, height, width, channels, 2)``: the vertical and horizontal
        gradients (how the border is padded differs by backend).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> step = np.array([[0, 0, 1, 1]] * 4, "float32").reshape(1, 4, 4, 1)
    >>> edges = ops.image.sobel_edges(step)
    >>> ops.shape(edges)
    (1, 4, 4, 1, 2)
    >>> ops.convert_to_numpy(edges)[0, 1, 1:3, 0, 1].tolist()  # dx inside the second row
    [4.0, 4.0]
    """


def _map_coordinates_spec(
    op_name, inputs, coordinates, order, fill_mode="constant", fill_value=0
) -> Any:
    c = shape_of(coordinates)
    if not c or (c[0] is not None and c[0] != len(shape_of(inputs))):
        raise ValueError(
            f"{op_name}: coordinates must have a leading axis of size {len(shape_of(inputs))} "
            f"(the input's rank), received shape {fmt(c)}."
        )
    return tensor(c[1:], std_dtype(inputs))


@op(_map_coordinates_spec, "image")
def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """Sample ``inputs`` at ``coordinates`` by interpolation (``scipy.ndimage.map_coordinates``).

    Args:
        inputs: a tensor of any rank ``n``.
        coordinates: a tensor ``(n, ...)``: for each output point, its coordinate along
            each axis of ``inputs``.
        order: the spline order: 0 (nearest) or 1 (linear).
        fill_mode: how points outside ``inputs`` are filled: ``"constant"``,
            ``"nearest"``, ``"wrap"``, ``"mirror"`` or ``"reflect"``.
        fill_value: the value for ``"constant"``.

    Returns:
        A tensor shaped as ``coordinates[0]``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> grid = np.array([[0.0, 1.0], [2.0, 3.0]])
    >>> points = np.array([[0.5, 1.0], [0.5, 0.0]])  # rows, then columns
    >>> out = ops.image.map_coordinates(grid, points, order=1)
    >>> ops.convert_to_numpy(out).tolist()
    [1.5, 2.0]
    """


def _scale_translate_spec(
    op_name, images, output_shape, scale, translation, spatial_dims, method, antialias=True
) -> Any:
    return tensor(tuple(output_shape), std_dtype(images))


@op(_scale_translate_spec, "image")
def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    """Resample images with a scale and a translation (``jax.image.scale_and_translate``).

    Args:
        images: a tensor.
        output_shape: the shape of the result.
        scale: a tensor with one scale per axis in ``spatial_dims``.
        translation: a tensor with one translation per axis in ``spatial_dims``.
        spatial_dims: the axes that are resampled.
        method: ``"linear"``, ``"bilinear"``, ``"trilinear"``, ``"triangle"``, ``"cubic"``,
            ``"bicubic"``, ``"tricubic"``, ``"keyscubic"``, ``"lanczos3"`` or ``"lanczos5"``.
        antialias: whether to low-pass filter when downsampling.

    Returns:
        A tensor of ``output_shape``: output point ``x`` samples the input at
        ``(x + 0.5 - translation) / scale - 0.5``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.image.scale_and_translate(
    ...     np.array([1.0, 3.0]), (4,), np.array([2.0]), np.array([0.0]), (0,), "linear"
    ... )
    >>> ops.convert_to_numpy(out).tolist()
    [1.0, 1.5, 2.5, 3.0]
    """
