"""Helpers shared by the nn ops: data layouts, per-axis arguments and windows."""

from mb_backend_openvino._graph import i64, opset
from mb_ops.numpy_shaped import check_padding as check_padding
from mb_ops.numpy_shaped import data_format as data_format
from mb_ops.numpy_shaped import per_axis as per_axis


def to_channels_first(node, fmt, n):
    """(N, *S, C) -> (N, C, *S) when ``fmt`` is channels_last (OpenVINO's layout)."""
    if fmt == "channels_first":
        return node
    return opset.transpose(node, i64([0, n + 1, *range(1, n + 1)])).output(0)


def from_channels_first(node, fmt, n):
    if fmt == "channels_first":
        return node
    return opset.transpose(node, i64([0, *range(2, n + 2), 1])).output(0)


def auto_pad(padding):
    """OpenVINO's auto_pad for Keras padding: 'same' is TensorFlow's (extra at the end)."""
    return "same_upper" if padding == "same" else "valid"
