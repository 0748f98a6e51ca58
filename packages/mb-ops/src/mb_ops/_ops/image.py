"""Image ops (``keras.ops.image``); crops, pads, patches and SSIM are written over other ops."""

from __future__ import annotations

from typing import Any

from mb_ops import numpy as ew
from mb_ops._ops import numpy_creation as cr
from mb_ops._ops import numpy_linear as lin
from mb_ops._ops import numpy_reductions as red
from mb_ops._ops import numpy_shape as shp
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import float_dtype, fmt, shape_of, std_dtype, tensor
from mb_ops._ops.core import cast
from mb_ops._ops.nn_conv import as_tuple, data_format_of, window_output
from mb_ops._ops.nn_conv import conv as _conv
from mb_ops._ops.numpy_indexing import get_item, pad


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
    """Convert RGB images to HSV."""


@op(_float_image_spec, "image")
def hsv_to_rgb(images, data_format=None):
    """Convert HSV images to RGB."""


def _grayscale_spec(op_name: str, images: Any, data_format: Any = None) -> Any:
    s, fmt_, _ = _image_axes(op_name, images, data_format)
    out = list(s)
    out[_channel_axis(s, fmt_)] = 1
    return tensor(out, std_dtype(images))


@op(_grayscale_spec, "image")
def rgb_to_grayscale(images, data_format=None):
    """Convert RGB images to grayscale (one channel)."""


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
    """Resize images to ``size`` (height, width)."""


@op(_same_image_spec, "image")
def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    """Apply affine transforms (8 parameters per image)."""


@op(_same_image_spec, "image")
def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    """Apply perspective transforms mapping ``start_points`` to ``end_points``."""


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
    """Random elastic deformation of images."""


@op(_same_image_spec, "image")
def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Gaussian blur."""


def _sobel_spec(op_name: str, images: Any, data_format: Any = None) -> Any:
    s = shape_of(images)
    if len(s) != 4:
        raise ValueError(f"{op_name}: expected a batch of images (rank 4), received {fmt(s)}.")
    return tensor((*s, 2), std_dtype(images))


@op(_sobel_spec, "image")
def sobel_edges(images, data_format=None):
    """Sobel gradients (dy, dx) in a new last axis."""


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
    """Sample ``inputs`` at ``coordinates`` by interpolation."""


def _scale_translate_spec(
    op_name, images, output_shape, scale, translation, spatial_dims, method, antialias=True
) -> Any:
    return tensor(tuple(output_shape), std_dtype(images))


@op(_scale_translate_spec, "image")
def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    """Resample images with a scale and a translation (jax.image semantics)."""


def _crop_box(op_name, length_hw, first, last, target, name) -> tuple[Any, Any]:
    if target is not None:
        if first is None and last is None:
            raise ValueError(f"{op_name}: with target_{name}, give a {name} cropping too.")
        if first is None:
            first = None if length_hw is None else length_hw - target - last
        return first, target
    first = first or 0
    last = last or 0
    size = None if length_hw is None else length_hw - first - last
    if size is not None and size <= 0:
        raise ValueError(f"{op_name}: the cropping leaves no pixels along the {name}.")
    return first, size


def _crop_args(op_name, images, top, left, bottom, right, th, tw, data_format):
    s, _, start = _image_axes(op_name, images, data_format)
    h, w = s[start], s[start + 1]
    y0, out_h = _crop_box(op_name, h, top, bottom, th, "height")
    x0, out_w = _crop_box(op_name, w, left, right, tw, "width")
    return s, start, y0, out_h, x0, out_w


def _crop_spec(
    op_name,
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    s, start, _, out_h, _, out_w = _crop_args(
        op_name,
        images,
        top_cropping,
        left_cropping,
        bottom_cropping,
        right_cropping,
        target_height,
        target_width,
        data_format,
    )
    return tensor(_with_spatial(s, start, (out_h, out_w)), std_dtype(images))


def _crop_images(
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    s, start, y0, out_h, x0, out_w = _crop_args(
        "crop_images",
        images,
        top_cropping,
        left_cropping,
        bottom_cropping,
        right_cropping,
        target_height,
        target_width,
        data_format,
    )
    key = [slice(None)] * len(s)
    key[start] = slice(y0, y0 + out_h)
    key[start + 1] = slice(x0, x0 + out_w)
    return get_item(images, tuple(key))


@op(_crop_spec, "image", impl=_crop_images)
def crop_images(
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    """Crop images to a box given by margins or a target size."""


def _pad_box(op_name, length_hw, first, last, target, name) -> tuple[Any, Any]:
    if target is not None:
        if first is None and last is None:
            raise ValueError(f"{op_name}: with target_{name}, give a {name} padding too.")
        if length_hw is None:
            return first or 0, last or 0
        if first is None:
            first = target - length_hw - last
        else:
            last = target - length_hw - first
        if first < 0 or last < 0:
            raise ValueError(f"{op_name}: target_{name}={target} is smaller than the image.")
        return first, last
    return first or 0, last or 0


def _pad_args(op_name, images, top, left, bottom, right, th, tw, data_format):
    s, _, start = _image_axes(op_name, images, data_format)
    h, w = s[start], s[start + 1]
    t, b = _pad_box(op_name, h, top, bottom, th, "height")
    lft, r = _pad_box(op_name, w, left, right, tw, "width")
    return s, start, (t, b), (lft, r)


def _pad_spec(
    op_name,
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    s, start, ph, pw = _pad_args(
        op_name,
        images,
        top_padding,
        left_padding,
        bottom_padding,
        right_padding,
        target_height,
        target_width,
        data_format,
    )
    h, w = s[start], s[start + 1]
    out_h = target_height if target_height is not None else (None if h is None else h + sum(ph))
    out_w = target_width if target_width is not None else (None if w is None else w + sum(pw))
    return tensor(_with_spatial(s, start, (out_h, out_w)), std_dtype(images))


def _pad_images(
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    s, start, ph, pw = _pad_args(
        "pad_images",
        images,
        top_padding,
        left_padding,
        bottom_padding,
        right_padding,
        target_height,
        target_width,
        data_format,
    )
    widths = [(0, 0)] * len(s)
    widths[start] = ph
    widths[start + 1] = pw
    return pad(images, widths)


@op(_pad_spec, "image", impl=_pad_images)
def pad_images(
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    """Zero-pad images by margins or to a target size."""


def _patches_spec(
    op_name, images, size, strides=None, dilation_rate=1, padding="valid", data_format=None, n=2
) -> Any:
    s = shape_of(images)
    if len(s) not in (n + 1, n + 2):
        raise ValueError(
            f"{op_name}: expected inputs of rank {n + 1} or {n + 2}, received shape {fmt(s)}."
        )
    fmt_ = data_format_of(data_format)
    size = as_tuple(size, n, "size", op_name)
    strides = size if strides is None else as_tuple(strides, n, "strides", op_name)
    dil = as_tuple(dilation_rate, n, "dilation_rate", op_name)
    start = len(s) - n - 1 + (1 if fmt_ == "channels_first" else 0)
    spatial = s[start : start + n]
    out = [
        window_output(d, k, st, padding, di)
        for d, k, st, di in zip(spatial, size, strides, dil, strict=True)
    ]
    ch_axis = _channel_axis_n(s, fmt_, n)
    channels = s[ch_axis]
    depth = None if channels is None else channels
    for k in size:
        depth = None if depth is None else depth * k
    res = list(_with_spatial(s, start, out))
    res[ch_axis] = depth
    return tensor(res, std_dtype(images))


def _channel_axis_n(s: tuple, fmt_: str, n: int) -> int:
    return len(s) - 1 if fmt_ == "channels_last" else len(s) - n - 1


def _extract_patches(
    images, size, strides=None, dilation_rate=1, padding="valid", data_format=None, n=2
):
    fmt_ = data_format_of(data_format)
    s = shape_of(images)
    size = as_tuple(size, n, "size", "extract_patches")
    strides = size if strides is None else as_tuple(strides, n, "strides", "extract_patches")
    unbatched = len(s) == n + 1
    if unbatched:
        images = shp.expand_dims(images, 0)
    channels = shape_of(images)[-1 if fmt_ == "channels_last" else 1]
    depth = channels
    for k in size:
        depth *= k
    kernel = shp.reshape(cr.eye(depth, dtype=std_dtype(images)), (*size, channels, depth))
    out = _conv(
        images,
        kernel,
        strides=strides,
        padding=padding,
        data_format=fmt_,
        dilation_rate=dilation_rate,
    )
    return shp.squeeze(out, 0) if unbatched else out


@op(_patches_spec, "image", impl=_extract_patches)
def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Patches of ``size`` flattened into the channel axis."""


def _patches3d_spec(
    op_name, volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None
) -> Any:
    return _patches_spec(op_name, volumes, size, strides, dilation_rate, padding, data_format, 3)


def _extract_patches_3d(
    volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None
):
    return _extract_patches(volumes, size, strides, dilation_rate, padding, data_format, 3)


@op(_patches3d_spec, "image", impl=_extract_patches_3d)
def extract_patches_3d(
    volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None
):
    """3D patches of ``size`` flattened into the channel axis."""


def _ssim_spec(
    op_name,
    image1,
    image2,
    max_val=1.0,
    filter_size=11,
    filter_sigma=1.5,
    k1=0.01,
    k2=0.03,
    data_format=None,
) -> Any:
    s1, s2 = shape_of(image1), shape_of(image2)
    for s in (s1, s2):
        if len(s) not in (3, 4):
            raise ValueError(f"{op_name}: expected images of rank 3 or 4, received shape {fmt(s)}.")
    if len(s1) != len(s2):
        raise ValueError(f"{op_name}: image1 {fmt(s1)} and image2 {fmt(s2)} differ in rank.")
    return tensor(() if len(s1) == 3 else (s1[0],), std_dtype(image1))


def _ssim(
    image1,
    image2,
    max_val=1.0,
    filter_size=11,
    filter_sigma=1.5,
    k1=0.01,
    k2=0.03,
    data_format=None,
):
    fmt_ = data_format_of(data_format)
    original = std_dtype(image1)
    compute = float_dtype(original)
    a, b = cast(image1, compute), cast(image2, compute)
    unbatched = len(shape_of(a)) == 3
    if unbatched:
        a, b = shp.expand_dims(a, 0), shp.expand_dims(b, 0)
    if fmt_ == "channels_first":
        a, b = shp.moveaxis(a, 1, -1), shp.moveaxis(b, 1, -1)
    batch, height, width, channels = shape_of(a)
    coords = ew.subtract(cr.arange(filter_size, dtype=compute), (filter_size - 1) / 2.0)
    gauss = ew.exp(ew.divide(ew.negative(ew.square(coords)), 2.0 * filter_sigma**2))
    gauss = ew.divide(gauss, red.sum(gauss))
    kernel = shp.reshape(lin.outer(gauss, gauss), (filter_size, filter_size, 1, 1))

    def per_channel(x: Any) -> Any:
        return shp.reshape(shp.transpose(x, (0, 3, 1, 2)), (-1, height, width, 1))

    def blur(x: Any) -> Any:
        return _conv(x, kernel, strides=1, padding="valid", data_format="channels_last")

    a, b = per_channel(a), per_channel(b)
    mu1, mu2 = blur(a), blur(b)
    mu1_sq, mu2_sq, mu12 = ew.square(mu1), ew.square(mu2), ew.multiply(mu1, mu2)
    s1 = ew.subtract(blur(ew.square(a)), mu1_sq)
    s2 = ew.subtract(blur(ew.square(b)), mu2_sq)
    s12 = ew.subtract(blur(ew.multiply(a, b)), mu12)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    num = ew.multiply(ew.add(ew.multiply(mu12, 2.0), c1), ew.add(ew.multiply(s12, 2.0), c2))
    den = ew.multiply(ew.add(ew.add(mu1_sq, mu2_sq), c1), ew.add(ew.add(s1, s2), c2))
    per_image = red.mean(ew.divide(num, den), axis=[1, 2, 3])
    out = red.mean(shp.reshape(per_image, (batch, channels)), axis=-1)
    if unbatched:
        out = shp.squeeze(out, 0)
    return cast(out, original)


@op(_ssim_spec, "image", impl=_ssim)
def ssim(
    image1,
    image2,
    max_val=1.0,
    filter_size=11,
    filter_sigma=1.5,
    k1=0.01,
    k2=0.03,
    data_format=None,
):
    """Structural similarity index between two images (per image)."""
