"""Image ops written over other ops (``keras.ops.image``): crops, pads, patches, SSIM."""

from __future__ import annotations

from typing import Any

from mb_ops._ops import numpy_arithmetic as ar
from mb_ops._ops import numpy_creation as cr
from mb_ops._ops import numpy_linear as lin
from mb_ops._ops import numpy_reductions as red
from mb_ops._ops import numpy_shape as shp
from mb_ops._ops import numpy_transcendental as tr
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import float_dtype, fmt, shape_of, std_dtype, tensor
from mb_ops._ops.core import cast
from mb_ops._ops.image import _image_axes, _with_spatial
from mb_ops._ops.nn_conv import as_tuple, data_format_of, window_output
from mb_ops._ops.nn_conv import conv as _conv
from mb_ops._ops.numpy_indexing import get_item, pad


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
    """Crop images to a box given by margins or a target size.

    Args:
        images: a tensor of images, rank 3 or 4.
        top_cropping: the rows removed at the top.
        left_cropping: the columns removed at the left.
        bottom_cropping: the rows removed at the bottom (or give ``target_height``).
        right_cropping: the columns removed at the right (or give ``target_width``).
        target_height: the height of the result.
        target_width: the width of the result.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor of the cropped images.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> image = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> out = ops.image.crop_images(
    ...     image, top_cropping=1, left_cropping=1, target_height=2, target_width=2
    ... )
    >>> ops.convert_to_numpy(out)[0, :, :, 0].tolist()
    [[5.0, 6.0], [9.0, 10.0]]
    """


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
    """Pad images with zeros to a box given by margins or a target size.

    Args:
        images: a tensor of images, rank 3 or 4.
        top_padding: the rows added at the top.
        left_padding: the columns added at the left.
        bottom_padding: the rows added at the bottom (or give ``target_height``).
        right_padding: the columns added at the right (or give ``target_width``).
        target_height: the height of the result.
        target_width: the width of the result.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor of the padded images.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.image.pad_images(
    ...     np.ones((1, 2, 2, 1), "float32"), 1, 0, target_height=4, target_width=3
    ... )
    >>> ops.convert_to_numpy(out)[0, :, :, 0].tolist()
    [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """


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
    """Patches of ``size`` flattened into the channel axis.

    Args:
        images: a tensor of images, rank 3 or 4.
        size: an int or a pair: the patch size.
        strides: an int or a pair; None: ``size`` (patches that do not overlap).
        dilation_rate: an int or a pair: the spacing between a patch's pixels.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor ``(batch, rows, cols, size_h * size_w * channels)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> image = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> patches = ops.image.extract_patches(image, 2)
    >>> ops.shape(patches)
    (1, 2, 2, 4)
    >>> ops.convert_to_numpy(patches)[0, 0, 0].tolist()
    [0.0, 1.0, 4.0, 5.0]
    """


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
    """3D patches of ``size`` flattened into the channel axis.

    Args:
        volumes: a tensor of volumes, rank 4 or 5 ``(batch, depth, height, width, channels)``.
        size: an int or a triple: the patch size.
        strides: an int or a triple; None: ``size``.
        dilation_rate: an int or a triple.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A tensor ``(batch, d, h, w, size_d * size_h * size_w * channels)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> volume = np.arange(8, dtype="float32").reshape(1, 2, 2, 2, 1)
    >>> patches = ops.image.extract_patches_3d(volume, 2)
    >>> ops.shape(patches)
    (1, 1, 1, 1, 8)
    """


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
    coords = ar.subtract(cr.arange(filter_size, dtype=compute), (filter_size - 1) / 2.0)
    gauss = tr.exp(ar.divide(ar.negative(ar.square(coords)), 2.0 * filter_sigma**2))
    gauss = ar.divide(gauss, red.sum(gauss))
    kernel = shp.reshape(lin.outer(gauss, gauss), (filter_size, filter_size, 1, 1))

    def per_channel(x: Any) -> Any:
        return shp.reshape(shp.transpose(x, (0, 3, 1, 2)), (-1, height, width, 1))

    def blur(x: Any) -> Any:
        return _conv(x, kernel, strides=1, padding="valid", data_format="channels_last")

    a, b = per_channel(a), per_channel(b)
    mu1, mu2 = blur(a), blur(b)
    mu1_sq, mu2_sq, mu12 = ar.square(mu1), ar.square(mu2), ar.multiply(mu1, mu2)
    s1 = ar.subtract(blur(ar.square(a)), mu1_sq)
    s2 = ar.subtract(blur(ar.square(b)), mu2_sq)
    s12 = ar.subtract(blur(ar.multiply(a, b)), mu12)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    num = ar.multiply(ar.add(ar.multiply(mu12, 2.0), c1), ar.add(ar.multiply(s12, 2.0), c2))
    den = ar.multiply(ar.add(ar.add(mu1_sq, mu2_sq), c1), ar.add(ar.add(s1, s2), c2))
    per_image = red.mean(ar.divide(num, den), axis=[1, 2, 3])
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
    """Structural similarity index between two images (per image).

    Args:
        image1: a tensor of images, rank 3 or 4.
        image2: a tensor of the same shape.
        max_val: the dynamic range of the values (1.0 for ``[0, 1]``, 255 for bytes).
        filter_size: the size of the Gaussian window.
        filter_sigma: the standard deviation of the Gaussian window.
        k1: the stability constant of the luminance term.
        k2: the stability constant of the contrast term.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.

    Returns:
        A float tensor with one value per image, in ``[-1, 1]`` (1: identical images).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> image = np.linspace(0.0, 1.0, 256, dtype="float32").reshape(1, 16, 16, 1)
    >>> ops.convert_to_numpy(ops.image.ssim(image, image)).astype("float64").round(4).tolist()
    [1.0]
    >>> bool(ops.convert_to_numpy(ops.image.ssim(image, 1.0 - image))[0] < 0.5)
    True
    """
