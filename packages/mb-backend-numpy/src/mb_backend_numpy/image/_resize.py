"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.image._common import check_rank
from mb_backend_numpy.nn._common import data_format as standardize_data_format
from mb_ops import numpy_shaped

RESIZE_INTERPOLATIONS = numpy_shaped.RESIZE_INTERPOLATIONS
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


def _triangle(x):
    return np.maximum(0.0, 1.0 - np.abs(x))


def _keys_cubic(x):
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = np.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return np.where(x >= 2.0, 0.0, out)


def _lanczos(radius):
    def kernel(x):
        y = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius)
        safe = np.where(x != 0, np.pi**2 * x**2, 1.0)
        out = np.where(x > 1e-3, y / safe, 1.0)
        return np.where(x > radius, 0.0, out)

    return kernel


_KERNELS = {
    "linear": _triangle,
    "bilinear": _triangle,
    "trilinear": _triangle,
    "cubic": _keys_cubic,
    "bicubic": _keys_cubic,
    "tricubic": _keys_cubic,
    "lanczos3": _lanczos(3.0),
    "lanczos5": _lanczos(5.0),
}


def _weights(in_size, out_size, scale, translation, kernel, antialias):
    """(in_size, out_size) interpolation weights for one axis."""
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


def _scale_and_translate(x, output_shape, spatial_dims, scale, translation, kernel, antialias):
    if not spatial_dims:
        return x
    integer = np.issubdtype(x.dtype, np.integer)
    compute = "float32" if integer or x.dtype.itemsize < 4 else x.dtype
    out = x.astype(compute)
    for i, d in enumerate(spatial_dims):
        d = d % x.ndim
        w = _weights(
            x.shape[d], output_shape[d], float(scale[i]), float(translation[i]), kernel, antialias
        )
        out = np.moveaxis(np.tensordot(out, w.astype(compute), axes=(d, 0)), -1, d)
    if integer:
        return np.clip(np.round(out), x.min(), x.max()).astype(x.dtype)
    return out.astype(x.dtype)


def _resize_nearest(x, output_shape):
    for d in range(x.ndim):
        m, n = x.shape[d], output_shape[d]
        if m == n:
            continue
        index = np.floor((np.arange(n, dtype=np.float32) + 0.5) * m / n).astype(np.int64)
        x = np.take(x, index, axis=d)
    return x


def _crop_or_pad(images, target, crop, pad, fill_value, channels_last):
    h_axis = images.ndim - 3 if channels_last else images.ndim - 2
    height, width = images.shape[h_axis], images.shape[h_axis + 1]
    th, tw = target
    if crop:
        ch = max(min(height, int(width * th / tw)), 1)
        cw = max(min(width, int(height * tw / th)), 1)
        top, left = int((height - ch) / 2), int((width - cw) / 2)
        index = [slice(None)] * images.ndim
        index[h_axis] = slice(top, top + ch)
        index[h_axis + 1] = slice(left, left + cw)
        return images[tuple(index)]
    if pad:
        ph = max(height, int(width * th / tw))
        pw = max(width, int(height * tw / th))
        top, left = int((ph - height) / 2), int((pw - width) / 2)
        widths = [(0, 0)] * images.ndim
        if top > 0:
            widths[h_axis] = (top, top)
        elif left > 0:
            widths[h_axis + 1] = (left, left)
        return np.pad(images, widths, constant_values=np.asarray(fill_value, images.dtype))
    return images


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
    fmt = standardize_data_format(data_format)
    numpy_shaped.check_resize_arguments(
        size, interpolation, fill_mode, crop_to_aspect_ratio, pad_to_aspect_ratio
    )
    images = to_tensor(images)
    check_rank(images)
    channels_last = fmt == "channels_last"
    images = _crop_or_pad(
        images, tuple(size), crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value, channels_last
    )
    shape = numpy_shaped.resized_shape(images.shape, size, channels_last)
    if interpolation == "nearest":
        return _resize_nearest(images, shape)
    dims = [d for d in range(images.ndim) if images.shape[d] != shape[d]]
    scale = [shape[d] / images.shape[d] if images.shape[d] else 1.0 for d in dims]
    return _scale_and_translate(
        images, shape, dims, scale, [0.0] * len(dims), _KERNELS[interpolation], antialias
    )


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    if method not in SCALE_AND_TRANSLATE_METHODS:
        raise ValueError(
            f"scale_and_translate method must be one of {SCALE_AND_TRANSLATE_METHODS}. "
            f"Received: method={method!r}."
        )
    images = to_tensor(images)
    scale, translation = to_tensor(scale), to_tensor(translation)
    dtype = result_type(scale.dtype, translation.dtype)
    scale, translation = scale.astype(dtype), translation.astype(dtype)
    return _scale_and_translate(
        images,
        tuple(output_shape),
        tuple(spatial_dims),
        np.atleast_1d(scale),
        np.atleast_1d(translation),
        _KERNELS[method],
        antialias,
    )
