"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate.

The interpolation weights depend only on sizes, scale and translation, so they are
built once as constant (in, out) matrices of the compiled model; OpenVINO applies
them to the images axis by axis (one MatMul per resized axis).
"""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import const_like, cv, i64, opset, run
from mb_backend_openvino.image._common import check_rank
from mb_backend_openvino.nn._common import data_format as standardize_data_format
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
    """Keys' cubic convolution kernel with a = -0.5."""
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return np.where(x >= 2.0, 0.0, np.where(x >= 1.0, far, near))


def _lanczos(radius):
    def kernel(x):
        with np.errstate(all="ignore"):
            y = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi**2 * x**2)
        return np.where(x > radius, 0.0, np.where(x > 1e-3, y, 1.0))

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
    """The (in_size, out_size) matrix mapping one axis of the input to the output."""
    inv_scale = 1.0 / scale
    width = max(inv_scale, 1.0) if antialias else 1.0
    centres = (np.arange(out_size) + 0.5) * inv_scale - translation * inv_scale - 0.5
    w = kernel(np.abs(centres[None, :] - np.arange(in_size)[:, None]) / width)
    total = w.sum(axis=0, keepdims=True)
    usable = np.abs(total) > 1000.0 * np.finfo(np.float32).eps
    w = np.where(usable, w / np.where(total != 0, total, 1.0), 0.0)
    inside = (centres >= -0.5) & (centres <= in_size - 0.5)
    return np.where(inside[None, :], w, 0.0)


def _apply(node, axis, matrix, work):
    """Contract ``axis`` of ``node`` with ``matrix`` (in, out), keeping the axis in place."""
    nd = len(node.get_partial_shape())
    perm = [d for d in range(nd) if d != axis] + [axis]
    moved = opset.transpose(node, i64(perm))
    weights = cv(
        opset.constant(matrix.astype(np.float64 if work == "float64" else np.float32)).output(0),
        work,
    )
    out = opset.matmul(moved, weights, False, False)
    inverse = [perm.index(d) for d in range(nd)]
    return opset.transpose(out, i64(inverse)).output(0)


def _scale_and_translate(x, out_shape, dims, scales, translations, kernel, antialias, key):
    dtype = x.dtype
    integer = not _dtypes.is_float_dtype(dtype)
    work = "float64" if dtype == "float64" else "float32"
    matrices = [
        _weights(x.shape[d], out_shape[d], float(s), float(t), kernel, antialias)
        for d, s, t in zip(dims, scales, translations, strict=True)
    ]

    def build(a):
        original = a
        a = cv(a, work)
        for d, m in zip(dims, matrices, strict=True):
            a = _apply(a, d, m, work)
        if integer:
            lo = opset.reduce_min(cv(original, work), i64(list(range(len(x.shape)))), False)
            hi = opset.reduce_max(cv(original, work), i64(list(range(len(x.shape)))), False)
            a = opset.minimum(opset.maximum(opset.round(a, "half_to_even"), lo), hi).output(0)
        return cv(a, dtype)

    return run(key, build, x)


def _resize_nearest(x, out_shape):
    dims = [d for d in range(x.ndim) if x.shape[d] != out_shape[d]]
    indices = [
        np.floor(
            (np.arange(out_shape[d], dtype=np.float32) + 0.5) * x.shape[d] / out_shape[d]
        ).astype(np.int64)
        for d in dims
    ]

    def build(a):
        for d, index in zip(dims, indices, strict=True):
            a = opset.gather(a, i64(index), i64(d)).output(0)
        return a

    return run(("resize_nearest", tuple(x.shape), tuple(out_shape)), build, x)


def _crop_or_pad(images, target, crop, pad, fill_value, channels_last):
    h_axis = images.ndim - 3 if channels_last else images.ndim - 2
    height, width = images.shape[h_axis], images.shape[h_axis + 1]
    th, tw = target
    begin, end = [0] * images.ndim, list(images.shape)
    if crop:
        ch = max(min(height, int(width * th / tw)), 1)
        cw = max(min(width, int(height * tw / th)), 1)
        top, left = int((height - ch) / 2), int((width - cw) / 2)
        begin[h_axis], end[h_axis] = top, top + ch
        begin[h_axis + 1], end[h_axis + 1] = left, left + cw

        def build(a):
            return opset.slice(a, i64(begin), i64(end), i64([1] * len(begin)))

        return run(("crop", tuple(begin), tuple(end)), build, images)
    if pad:
        ph = max(height, int(width * th / tw))
        pw = max(width, int(height * tw / th))
        top, left = int((ph - height) / 2), int((pw - width) / 2)
        widths = [0] * images.ndim
        if top > 0:
            widths[h_axis] = top
        elif left > 0:
            widths[h_axis + 1] = left
        fill = float(fill_value)

        def build(a):
            return opset.pad(a, i64(widths), i64(widths), "constant", const_like(fill, a))

        return run(("pad_aspect", tuple(widths), fill), build, images)
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
    scales = [shape[d] / images.shape[d] if images.shape[d] else 1.0 for d in dims]
    key = (
        "resize",
        tuple(images.shape),
        tuple(shape),
        interpolation,
        bool(antialias),
        images.dtype,
    )
    return _scale_and_translate(
        images, shape, dims, scales, [0.0] * len(dims), _KERNELS[interpolation], antialias, key
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
    scales = np.atleast_1d(to_tensor(scale).numpy()).astype(np.float64)
    translations = np.atleast_1d(to_tensor(translation).numpy()).astype(np.float64)
    dims = [int(d) % images.ndim for d in spatial_dims]
    out_shape = tuple(int(d) for d in output_shape)
    key = (
        "scale_and_translate",
        tuple(images.shape),
        out_shape,
        tuple(dims),
        tuple(scales),
        tuple(translations),
        method,
        bool(antialias),
        images.dtype,
    )
    return _scale_and_translate(
        images, out_shape, dims, scales, translations, _KERNELS[method], antialias, key
    )
