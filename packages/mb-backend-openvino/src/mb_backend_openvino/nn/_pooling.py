"""Pooling on OpenVINO: max and average windows, adaptive pooling to a fixed size."""

from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import cv, i64, opset, run
from mb_backend_openvino.nn._layout import (
    auto_pad,
    check_padding,
    data_format,
    from_channels_first,
    per_axis,
    to_channels_first,
)


def _pool(name, inputs, pool_size, strides, padding, fmt):
    fmt = data_format(fmt)
    x = to_tensor(inputs)
    n = x.ndim - 2
    pool_size = per_axis(pool_size, n, "pool_size")
    strides = pool_size if strides is None else per_axis(strides, n, "strides")
    padding = check_padding(padding)
    dtype = x.dtype
    work = "float32" if dtype in ("float16", "bfloat16") else dtype
    zeros = [0] * n

    def build(a):
        a = to_channels_first(cv(a, work), fmt, n)
        if name == "max_pool":
            out = opset.max_pool(
                a, list(strides), [1] * n, zeros, zeros, list(pool_size), "floor", auto_pad(padding)
            ).output(0)
        else:
            # 'same' windows average only the real inputs (padding excluded), as Keras.
            out = opset.avg_pool(
                a,
                list(strides),
                zeros,
                zeros,
                list(pool_size),
                True,
                "floor",
                auto_pad(padding),
                dilations=[1] * n,
            ).output(0)
        return cv(from_channels_first(out, fmt, n), dtype)

    return run((name, fmt, tuple(pool_size), tuple(strides), padding, dtype), build, x)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("max_pool", inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool("average_pool", inputs, pool_size, strides, padding, data_format)


def _adaptive(name, inputs, output_size, fmt):
    fmt = data_format(fmt)
    x = to_tensor(inputs)
    n = x.ndim - 2
    if n not in (1, 2, 3):
        raise ValueError(
            f"Adaptive pooling supports 1D, 2D and 3D inputs (rank 3 to 5). "
            f"Received an input of rank {x.ndim}."
        )
    output_size = per_axis(output_size, n, "output_size")
    dtype = x.dtype
    work = "float32" if dtype in ("float16", "bfloat16") else dtype

    def build(a):
        a = to_channels_first(cv(a, work), fmt, n)
        if name == "adaptive_max_pool":
            out = opset.adaptive_max_pool(a, i64(list(output_size)), "i32").output(0)
        else:
            out = opset.adaptive_avg_pool(a, i64(list(output_size))).output(0)
        return cv(from_channels_first(out, fmt, n), dtype)

    return run((name, fmt, tuple(output_size), dtype), build, x)


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive("adaptive_average_pool", inputs, output_size, data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive("adaptive_max_pool", inputs, output_size, data_format)
