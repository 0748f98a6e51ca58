"""Convolutions, pooling, patches (unfold/fold) and pixel shuffles.

Inputs in ``channels_first`` are transposed to ``channels_last`` and back:
TensorFlow's CPU kernels only implement NHWC. Kernels use Keras's layouts:
``(*spatial, in_channels // groups, out_channels)`` for ``conv``,
``(*spatial, in_channels, multiplier)`` for ``depthwise_conv`` and
``(*spatial, out_channels, in_channels)`` for ``conv_transpose``.
"""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx, result_type, standardize_dtype
from mb_backend_tensorflow.nn._common import (
    as_tuple,
    check_padding,
    to_channels_first,
    to_channels_last,
)
from mb_backend_tensorflow.nn._common import (
    data_format as _data_format,
)


def _prepare(inputs, kernel):
    x, k = convert_to_tensor(inputs), convert_to_tensor(kernel)
    dtype = result_type(standardize_dtype(x.dtype), standardize_dtype(k.dtype))
    if not ("float" in dtype or "complex" in dtype):
        dtype = floatx()
    return tf.cast(x, dtype), tf.cast(k, dtype)


def _dilate_kernel(kernel, dilation):
    """The kernel with ``d - 1`` zeros between taps: dilation done by the weights."""
    for axis, d in enumerate(dilation):
        if d == 1:
            continue
        size = kernel.shape[axis]
        shape = kernel.shape.as_list()
        zeros_shape = [*shape[: axis + 1], d - 1, *shape[axis + 1 :]]
        spread = tf.concat(
            [tf.expand_dims(kernel, axis + 1), tf.zeros(zeros_shape, kernel.dtype)], axis + 1
        )
        merged = [*shape[:axis], size * d, *shape[axis + 1 :]]
        kernel = tf.reshape(spread, merged)
        kernel = tf.gather(kernel, tf.range((size - 1) * d + 1), axis=axis)
    return kernel


def _check_fits(x, kernel, dilation, padding):
    """With 'valid' padding every spatial axis must reach over the (dilated) kernel.

    (TF's oneDNN CPU kernels return a wrongly shaped tensor instead of failing.)
    """
    if padding != "VALID":
        return
    spatial = x.shape.as_list()[1:-1]
    reach = [
        None if k is None else (k - 1) * d + 1
        for k, d in zip(kernel.shape.as_list()[: len(spatial)], dilation, strict=True)
    ]
    if any(s is not None and r is not None and s < r for s, r in zip(spatial, reach, strict=True)):
        raise ValueError(
            f"The convolution would produce an empty output: the input's spatial shape "
            f"{spatial} is smaller than the kernel's reach {reach} (kernel size with dilation). "
            "Use padding='same', a smaller kernel or dilation rate, or a larger input."
        )


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    data_format = _data_format(data_format)
    x, k = _prepare(inputs, kernel)
    nd = x.shape.rank - 2
    if nd not in (1, 2, 3):
        raise ValueError(f"conv needs a 3D, 4D or 5D input. Received rank {x.shape.rank}.")
    strides = as_tuple(strides, nd, "strides")
    dilation = as_tuple(dilation_rate, nd, "dilation_rate")
    padding = check_padding(padding)
    if data_format == "channels_first":
        x = to_channels_last(x)
    in_channels, kernel_in = x.shape[-1], k.shape[-2]
    if in_channels is not None and in_channels % kernel_in:
        raise ValueError(
            f"conv: the input has {in_channels} channels, not a multiple of the kernel's input "
            f"channels {kernel_in} (kernel shape {k.shape.as_list()})."
        )
    _check_fits(x, k, dilation, padding)
    if max(strides) > 1 and max(dilation) > 1:
        # TF cannot stride and dilate at once: spread the kernel instead.
        k, dilation = _dilate_kernel(k, dilation), (1,) * nd
    groups = 1 if in_channels is None else in_channels // kernel_in
    if groups == 1:
        out = tf.nn.convolution(x, k, strides=strides, padding=padding, dilations=dilation)
    else:
        # Grouped convolution: CPU kernels lack it, so run each group and join.
        xs = tf.split(x, groups, axis=-1)
        ks = tf.split(k, groups, axis=-1)
        out = tf.concat(
            [
                tf.nn.convolution(xi, ki, strides=strides, padding=padding, dilations=dilation)
                for xi, ki in zip(xs, ks, strict=True)
            ],
            axis=-1,
        )
    return to_channels_first(out) if data_format == "channels_first" else out


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    data_format = _data_format(data_format)
    x, k = _prepare(inputs, kernel)
    nd = x.shape.rank - 2
    if nd not in (1, 2):
        raise ValueError(
            f"depthwise_conv needs a 3D or 4D input (1 or 2 spatial axes). Received rank "
            f"{x.shape.rank}."
        )
    strides = as_tuple(strides, nd, "strides")
    dilation = as_tuple(dilation_rate, nd, "dilation_rate")
    padding = check_padding(padding)
    if data_format == "channels_first":
        x = to_channels_last(x)
    if x.shape[-1] is not None and x.shape[-1] != k.shape[-2]:
        raise ValueError(
            f"depthwise_conv: the input has {x.shape[-1]} channels but the kernel expects "
            f"{k.shape[-2]} (kernel shape {k.shape.as_list()})."
        )
    _check_fits(x, k, dilation, padding)
    if max(strides) > 1 and max(dilation) > 1:
        k, dilation = _dilate_kernel(k, dilation), (1,) * nd
    if nd == 1:
        x, k = tf.expand_dims(x, 1), tf.expand_dims(k, 0)
        strides, dilation = (1, *strides), (1, *dilation)
    out = tf.nn.depthwise_conv2d(
        x, k, strides=(1, *strides, 1), padding=padding, dilations=dilation
    )
    if nd == 1:
        out = tf.squeeze(out, 1)
    return to_channels_first(out) if data_format == "channels_first" else out


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    data_format = _data_format(data_format)
    depthwise = depthwise_conv(
        inputs, depthwise_kernel, strides, padding, data_format, dilation_rate
    )
    return conv(depthwise, pointwise_kernel, 1, "valid", data_format, 1)


def _transpose_output_size(size, kernel, stride, padding, output_padding):
    if output_padding is None:
        if padding == "VALID":
            return size * stride + max(kernel - stride, 0)
        return size * stride
    pad = kernel // 2 if padding == "SAME" else 0
    return (size - 1) * stride + kernel - 2 * pad + output_padding


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    data_format = _data_format(data_format)
    x, k = _prepare(inputs, kernel)
    nd = x.shape.rank - 2
    strides = as_tuple(strides, nd, "strides")
    dilation = as_tuple(dilation_rate, nd, "dilation_rate")
    out_pad = None if output_padding is None else as_tuple(output_padding, nd, "output_padding")
    padding = check_padding(padding)
    if data_format == "channels_first":
        x = to_channels_last(x)
    if x.shape[-1] is not None and x.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"conv_transpose: the input has {x.shape[-1]} channels but the kernel expects "
            f"{k.shape[-1]} (kernel shape {k.shape.as_list()}, layout (*spatial, out, in))."
        )
    k = _dilate_kernel(k, dilation)
    dynamic = tf.shape(x)
    sizes = []
    for i in range(nd):
        size = x.shape[1 + i] if x.shape[1 + i] is not None else dynamic[1 + i]
        sizes.append(
            _transpose_output_size(
                size, k.shape[i], strides[i], padding, None if out_pad is None else out_pad[i]
            )
        )
    output_shape = tf.stack([dynamic[0], *sizes, k.shape[-2]])
    out = tf.nn.conv_transpose(x, k, output_shape, strides=strides, padding=padding)
    return to_channels_first(out) if data_format == "channels_first" else out


# ----- patches ---------------------------------------------------------------------


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an NCHW image: ``(N, C*kh*kw, L)`` (``torch.nn.Unfold``)."""
    x = convert_to_tensor(x)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(_pair, (kernel_size, dilation, padding, stride))
    n, c = tf.shape(x)[0], x.shape[1]
    x = tf.pad(x, [[0, 0], [0, 0], [ph, ph], [pw, pw]])
    patches = tf.image.extract_patches(
        tf.transpose(x, [0, 2, 3, 1]),
        sizes=[1, kh, kw, 1],
        strides=[1, sh, sw, 1],
        rates=[1, dh, dw, 1],
        padding="VALID",
    )  # (N, nH, nW, kh*kw*C)
    nh, nw = tf.shape(patches)[1], tf.shape(patches)[2]
    patches = tf.reshape(patches, [n, nh, nw, kh, kw, c])
    patches = tf.transpose(patches, [0, 5, 3, 4, 1, 2])
    return tf.reshape(patches, [n, c * kh * kw, nh * nw])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum sliding blocks back into an NCHW image (``torch.nn.Fold``)."""
    x = convert_to_tensor(x)
    (oh, ow), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(
        _pair, (output_size, kernel_size, dilation, padding, stride)
    )
    c = x.shape[1] // (kh * kw)
    hp, wp = oh + 2 * ph, ow + 2 * pw
    nh = (hp - dh * (kh - 1) - 1) // sh + 1
    nw = (wp - dw * (kw - 1) - 1) // sw + 1
    # Flat target position (in the padded image) of every (ki, kj, block) entry.
    ki, kj, bi, bj = np.meshgrid(
        np.arange(kh), np.arange(kw), np.arange(nh), np.arange(nw), indexing="ij"
    )
    target = ((bi * sh + ki * dh) * wp + (bj * sw + kj * dw)).reshape(-1)
    n = tf.shape(x)[0]
    values = tf.reshape(x, [n, c, kh * kw * nh * nw])
    values = tf.transpose(values, [2, 0, 1])  # (K*L, N, C)
    summed = tf.math.unsorted_segment_sum(values, target, hp * wp)  # (Hp*Wp, N, C)
    image = tf.reshape(tf.transpose(summed, [1, 2, 0]), [n, c, hp, wp])
    return image[:, :, ph : ph + oh, pw : pw + ow]


def depth_to_space(x, block_size, data_format="channels_last"):
    x = convert_to_tensor(x)
    data_format = _data_format(data_format)
    if data_format == "channels_first":
        return to_channels_first(tf.nn.depth_to_space(to_channels_last(x), block_size))
    return tf.nn.depth_to_space(x, block_size)


def space_to_depth(x, block_size, data_format="channels_last"):
    x = convert_to_tensor(x)
    data_format = _data_format(data_format)
    if data_format == "channels_first":
        return to_channels_first(tf.nn.space_to_depth(to_channels_last(x), block_size))
    return tf.nn.space_to_depth(x, block_size)


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
