"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.image._common import check_rank
from mb_ops import numpy_shaped

_KERNELS = numpy_shaped.KERNELS
_weights = numpy_shaped.interpolation_weights


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
        if x.shape[d] != output_shape[d]:
            x = np.take(x, numpy_shaped.nearest_indices(x.shape[d], output_shape[d]), axis=d)
    return x


def _crop(images, h_axis, rows, cols):
    index = [slice(None)] * images.ndim
    index[h_axis], index[h_axis + 1] = slice(*rows), slice(*cols)
    return images[tuple(index)]


def _pad(images, pads, fill_value):
    widths = [(p, p) for p in pads]
    return np.pad(images, widths, constant_values=np.asarray(fill_value, images.dtype))


def _resample(images, shape, dims, scales, interpolation, antialias):
    return _scale_and_translate(
        images, shape, dims, scales, [0.0] * len(dims), _KERNELS[interpolation], antialias
    )


resize = numpy_shaped.resize_function(
    to_tensor, check_rank, _crop, _pad, _resize_nearest, _resample
)


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    numpy_shaped.check_scale_and_translate_method(method)
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
