"""Helpers shared by the nn ops: data layouts, per-axis arguments and windows."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mb_ops.numpy_shaped import data_format as data_format
from mb_ops.numpy_shaped import per_axis as per_axis


def to_channels_last(x, fmt):
    if fmt == "channels_first":
        return np.moveaxis(x, 1, -1)
    return x


def from_channels_last(x, fmt):
    if fmt == "channels_first":
        return np.moveaxis(x, -1, 1)
    return x


def same_padding(size, window, stride):
    """TensorFlow/JAX 'same' padding (more at the end when odd) for one axis."""
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


def pad_spatial(x, pads, value=0):
    """Pad the spatial axes of a channels-last array by ``pads`` (pairs)."""
    if all(p == (0, 0) for p in pads):
        return x
    widths = [(0, 0), *pads, (0, 0)]
    return np.pad(x, widths, constant_values=np.asarray(value, dtype=x.dtype))


def paddings(spatial_shape, windows, strides, padding):
    padding = padding.lower()
    if padding == "valid":
        return [(0, 0)] * len(windows)
    if padding == "same":
        return [
            same_padding(s, w, st)
            for s, w, st in zip(spatial_shape, windows, strides, strict=False)
        ]
    raise ValueError(f"padding must be 'valid' or 'same'. Received: padding={padding!r}.")


def windows(x, window, strides, dilation=None):
    """Windows of a channels-last ``x``: shape ``(N, *out, C, *window)``.

    ``window`` is the number of taps per axis; with ``dilation`` the taps are
    that far apart. The result is a strided view (no copy).
    """
    n = len(window)
    dilation = dilation or (1,) * n
    extent = tuple((w - 1) * d + 1 for w, d in zip(window, dilation, strict=False))
    if any(e > s for e, s in zip(extent, x.shape[1:-1], strict=False)):
        raise ValueError(
            f"The window {extent} (after dilation) is larger than the padded input's spatial "
            f"shape {x.shape[1:-1]}. Use padding='same', a smaller kernel, or a larger input."
        )
    view = sliding_window_view(x, extent, axis=tuple(range(1, n + 1)))
    steps = [slice(None, None, s) for s in strides]
    taps = [slice(None, None, d) for d in dilation]
    index = (slice(None), *steps, slice(None), *taps)
    return view[index]
