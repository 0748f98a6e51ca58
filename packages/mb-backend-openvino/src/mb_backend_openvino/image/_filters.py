"""Image filters: Gaussian blur and Sobel edges."""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import cv, i64, opset, run
from mb_backend_openvino.image._common import check_rank, restore, to_batch_channels_last
from mb_backend_openvino.nn._common import data_format as standardize_data_format


def _gaussian_taps(size, sigma):
    taps = np.arange(size, dtype="float64") - (size - 1) / 2
    kernel = np.exp(-0.5 * (taps / sigma) ** 2)
    return kernel / kernel.sum()


def _depthwise(node, kernels, pad_mode):
    """(N, H, W, C) filtered by each (kh, kw) kernel per channel -> (N, H, W, C, K)."""
    count = len(kernels)
    kh, kw = kernels[0].shape
    x = opset.transpose(node, i64([0, 3, 1, 2]))  # (N, C, H, W)
    top, left = (kh - 1) // 2, (kw - 1) // 2
    pads_begin, pads_end = [0, 0, top, left], [0, 0, kh - 1 - top, kw - 1 - left]
    x = opset.pad(x, i64(pads_begin), i64(pads_end), pad_mode)
    shape = opset.shape_of(x, "i64")
    n_c = opset.slice(shape, i64([0]), i64([2]), i64([1]), i64([0]))
    hw = opset.slice(shape, i64([2]), i64([4]), i64([1]), i64([0]))
    # Every channel becomes a batch entry of one channel; K output channels = K filters.
    flat = opset.reshape(x, opset.concat([i64([-1, 1]), hw], 0), False)
    weights = np.stack(kernels)[:, None]  # (K, 1, kh, kw)
    filters = cv(
        opset.constant(weights.astype(np.float32)).output(0),
        _dtypes.name_of_ov(node.get_element_type()),
    )
    out = opset.convolution(flat, filters, [1, 1], [0, 0], [0, 0], [1, 1])
    out_hw = opset.slice(opset.shape_of(out, "i64"), i64([2]), i64([4]), i64([1]), i64([0]))
    out = opset.reshape(out, opset.concat([n_c, i64([count]), out_hw], 0), False)  # (N, C, K, H, W)
    return opset.transpose(out, i64([0, 3, 4, 1, 2])).output(0)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    images = to_tensor(images)
    check_rank(images)
    fmt = standardize_data_format(data_format)
    dtype = images.dtype
    size = [int(s) for s in np.broadcast_to(np.asarray(kernel_size), (2,))]
    sig = [float(s) for s in np.broadcast_to(np.asarray(sigma, dtype=np.float64), (2,))]
    # As Keras: kernel_size[0] and sigma[0] shape the x (width) taps.
    kernel = np.outer(_gaussian_taps(size[1], sig[1]), _gaussian_taps(size[0], sig[0]))
    work = "float64" if dtype == "float64" else "float32"
    single = images.ndim == 3

    def build(a):
        a = to_batch_channels_last(cv(a, work), single, fmt)
        out = opset.squeeze(_depthwise(a, [kernel], "constant"), i64([-1])).output(0)
        return cv(restore(out, single, fmt), dtype)

    return run(("gaussian_blur", tuple(size), tuple(sig), fmt, single, dtype), build, images)


def sobel_edges(images, data_format=None):
    """Vertical and horizontal Sobel responses, stacked on a new last axis."""
    images = to_tensor(images)
    check_rank(images)
    fmt = standardize_data_format(data_format)
    dtype = images.dtype
    work = "float64" if dtype == "float64" else "float32"
    single = images.ndim == 3
    smooth, derivative = np.array([1.0, 2.0, 1.0]), np.array([-1.0, 0.0, 1.0])
    kernels = [np.outer(derivative, smooth), np.outer(smooth, derivative)]

    def build(a):
        a = to_batch_channels_last(cv(a, work), single, fmt)
        # Borders as scipy.ndimage's default 'reflect' (the edge sample repeats).
        out = _depthwise(a, kernels, "symmetric")
        return cv(restore(out, single, fmt), dtype)

    return run(("sobel_edges", fmt, single, dtype), build, images)
