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
from mb_ops import numpy_shaped

_KERNELS = numpy_shaped.KERNELS
_weights = numpy_shaped.interpolation_weights


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
    dims = numpy_shaped.resized_axes(x.shape, out_shape)[0]
    indices = [numpy_shaped.nearest_indices(x.shape[d], out_shape[d]) for d in dims]

    def build(a):
        for d, index in zip(dims, indices, strict=True):
            a = opset.gather(a, i64(index), i64(d)).output(0)
        return a

    return run(("resize_nearest", tuple(x.shape), tuple(out_shape)), build, x)


def _crop(images, h_axis, rows, cols):
    begin, end = [0] * images.ndim, list(images.shape)
    (begin[h_axis], end[h_axis]), (begin[h_axis + 1], end[h_axis + 1]) = rows, cols

    def build(a):
        return opset.slice(a, i64(begin), i64(end), i64([1] * len(begin)))

    return run(("crop", tuple(begin), tuple(end)), build, images)


def _pad(images, widths, fill_value):
    fill = float(fill_value)

    def build(a):
        return opset.pad(a, i64(widths), i64(widths), "constant", const_like(fill, a))

    return run(("pad_aspect", tuple(widths), fill), build, images)


def _resample(images, shape, dims, scales, interpolation, antialias):
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


resize = numpy_shaped.resize_function(
    to_tensor, check_rank, _crop, _pad, _resize_nearest, _resample
)


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    numpy_shaped.check_scale_and_translate_method(method)
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
