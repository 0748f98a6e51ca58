"""Image filters: Gaussian blur and Sobel edges."""

import numpy as np
import scipy.ndimage

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.image._common import as_batch_channels_last, standardize_data_format
from mb_backend_numpy.nn._conv import depthwise_conv
from mb_backend_numpy.numpy._common import cast


def _gaussian_kernel(size, sigma):
    taps = np.arange(size, dtype="float64") - (size - 1) / 2
    kernel = np.exp(-0.5 * (taps / sigma) ** 2)
    return kernel / kernel.sum()


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    images = to_tensor(images)
    dtype = standardize_dtype(images.dtype)
    x, restore = as_batch_channels_last(images, data_format)
    size = [int(s) for s in np.broadcast_to(np.asarray(to_tensor(kernel_size)), (2,))]
    sigma = [float(s) for s in np.broadcast_to(np.asarray(to_tensor(sigma)), (2,))]
    # As Keras: kernel_size[0] and sigma[0] shape the x (width) taps.
    kernel = np.outer(_gaussian_kernel(size[1], sigma[1]), _gaussian_kernel(size[0], sigma[0]))
    channels = x.shape[-1]
    kernel = np.tile(kernel[:, :, None, None], (1, 1, channels, 1))
    compute = result_type(dtype, "float32")
    out = depthwise_conv(
        cast(x, compute), cast(kernel, compute), padding="same", data_format="channels_last"
    )
    return cast(restore(out), dtype)


def sobel_edges(images, data_format=None):
    """Vertical and horizontal Sobel responses, stacked on a new last axis."""
    images = to_tensor(images)
    x, _ = as_batch_channels_last(images, data_format)
    values = x.astype("float64")
    edges = np.empty((*values.shape, 2))
    for b in range(values.shape[0]):
        for c in range(values.shape[-1]):
            plane = values[b, :, :, c]
            edges[b, :, :, c, 0] = scipy.ndimage.sobel(plane, axis=0)
            edges[b, :, :, c, 1] = scipy.ndimage.sobel(plane, axis=1)
    if standardize_data_format(data_format) == "channels_first":
        edges = np.moveaxis(edges, 3, 1)
    if images.ndim == 3:
        edges = edges[0]
    return cast(edges, images.dtype)
