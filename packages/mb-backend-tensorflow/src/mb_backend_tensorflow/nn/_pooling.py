"""Pooling: max/average with fixed windows, and adaptive (output-size) pooling."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._conversion import convert_to_tensor
from mb_backend_tensorflow.nn._layout import (
    as_tuple,
    check_padding,
    to_channels_first,
    to_channels_last,
)
from mb_backend_tensorflow.nn._layout import (
    data_format as _data_format,
)


def _pool(fn, inputs, pool_size, strides, padding, data_format):
    data_format = _data_format(data_format)
    x = convert_to_tensor(inputs)
    nd = x.shape.rank - 2
    pool_size = as_tuple(pool_size, nd, "pool_size")
    strides = pool_size if strides is None else as_tuple(strides, nd, "strides")
    padding = check_padding(padding)
    if data_format == "channels_first":
        x = to_channels_last(x)
    out = fn(x, pool_size, strides, padding)
    return to_channels_first(out) if data_format == "channels_first" else out


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool(tf.nn.max_pool, inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool(tf.nn.avg_pool, inputs, pool_size, strides, padding, data_format)


def _windows(length, out):
    """PyTorch's adaptive windows: [floor(i*L/out), ceil((i+1)*L/out))."""
    return [((i * length) // out, -((-(i + 1) * length) // out)) for i in range(out)]


def _adaptive(inputs, output_size, data_format, is_max):
    data_format = _data_format(data_format)
    x = convert_to_tensor(inputs)
    nd = x.shape.rank - 2
    output_size = as_tuple(output_size, nd, "output_size")
    if data_format == "channels_first":
        x = to_channels_last(x)
    for i, out in enumerate(output_size):
        axis = 1 + i
        length = x.shape[axis]
        if length is None:
            raise ValueError(
                "adaptive pooling needs statically known spatial sizes. Received shape "
                f"{x.shape.as_list()}."
            )
        windows = _windows(length, out)
        if is_max:
            parts = [
                tf.reduce_max(tf.gather(x, tf.range(a, b), axis=axis), axis=axis, keepdims=True)
                for a, b in windows
            ]
            x = tf.concat(parts, axis=axis)
        else:
            weights = np.zeros((out, length), dtype=x.dtype.as_numpy_dtype)
            for j, (a, b) in enumerate(windows):
                weights[j, a:b] = 1.0 / (b - a)
            moved = tf.tensordot(x, tf.constant(weights.T), axes=[[axis], [0]])
            x = tf.experimental.numpy.moveaxis(moved, -1, axis)
    return to_channels_first(x) if data_format == "channels_first" else x


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, data_format, is_max=False)


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, data_format, is_max=True)
