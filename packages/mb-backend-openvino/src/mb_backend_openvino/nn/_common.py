"""Helpers shared by the nn ops: data layouts, per-axis arguments and windows."""

import numpy as np

from mb_backend_openvino._graph import i64, opset
from mb_ops import config


def data_format(value):
    value = config.image_data_format() if value is None else value
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            f"data_format must be 'channels_last' or 'channels_first'. Received: {value!r}."
        )
    return value


def to_channels_first(node, fmt, n):
    """(N, *S, C) -> (N, C, *S) when ``fmt`` is channels_last (OpenVINO's layout)."""
    if fmt == "channels_first":
        return node
    return opset.transpose(node, i64([0, n + 1, *range(1, n + 1)])).output(0)


def from_channels_first(node, fmt, n):
    if fmt == "channels_first":
        return node
    return opset.transpose(node, i64([0, *range(2, n + 2), 1])).output(0)


def per_axis(value, n, name):
    """An int or a sequence, as a tuple of ``n`` ints."""
    if isinstance(value, int | np.integer):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1 and n > 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"{name} must have {n} values, one per spatial axis. Received: {value}.")
    return value


def check_padding(padding):
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"padding must be 'valid' or 'same'. Received: padding={padding!r}.")
    return padding


def auto_pad(padding):
    """OpenVINO's auto_pad for Keras padding: 'same' is TensorFlow's (extra at the end)."""
    return "same_upper" if padding == "same" else "valid"
