"""Image filters: Gaussian blur and Sobel edges."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow.image._common import batched, check_images, to_last
from mb_backend_tensorflow.nn._common import data_format as standardize_format


def _gaussian_1d(size, sigma, dtype):
    x = tf.range(size, dtype=dtype) - tf.cast(size - 1, dtype) / 2.0
    k = tf.exp(-0.5 * tf.square(x / tf.cast(sigma, dtype)))
    return k / tf.reduce_sum(k)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    images = convert_to_tensor(images)
    check_images(images, "gaussian_blur")
    dtype = images.dtype if images.dtype.is_floating else tf.float32
    images, undo_layout = to_last(tf.cast(images, dtype), data_format)
    images, undo_batch = batched(images)
    kh, kw = (int(v) for v in kernel_size)
    ky = _gaussian_1d(kh, sigma[1] if len(sigma) > 1 else sigma[0], dtype)
    kx = _gaussian_1d(kw, sigma[0], dtype)
    kernel = tf.tensordot(ky, kx, axes=0)[:, :, None, None]
    kernel = tf.tile(kernel, [1, 1, tf.shape(images)[-1], 1])
    out = tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
    return undo_layout(undo_batch(out))


def sobel_edges(images, data_format=None):
    """Vertical and horizontal Sobel responses, stacked last: ``(..., 2)``."""
    images = convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError(f"sobel_edges needs a 4D batch. Received {images.shape.as_list()}.")
    if not images.dtype.is_floating:
        images = tf.cast(images, "float32")
    data_format = standardize_format(data_format)
    images, _ = to_last(images, data_format)
    edges = tf.image.sobel_edges(images)  # (N, H, W, C, 2)
    if data_format == "channels_first":
        return tf.transpose(edges, (0, 3, 1, 2, 4))
    return edges
