"""Checks and layout helpers shared by the image functions."""

from mb_backend_openvino._graph import i64, opset
from mb_backend_openvino.nn._common import data_format as standardize_data_format


def check_rank(images):
    if images.ndim not in (3, 4):
        raise ValueError(
            "Expected images of rank 3 (one image) or 4 (a batch). "
            f"Received: images.shape={images.shape}."
        )


def to_batch_channels_last(node, single, fmt):
    """A node of images as (N, H, W, C)."""
    if single:
        node = opset.unsqueeze(node, i64([0])).output(0)
    if fmt == "channels_first":
        node = opset.transpose(node, i64([0, 2, 3, 1])).output(0)
    return node


def restore(node, single, fmt):
    """Undo `to_batch_channels_last` (an extra trailing axis is kept last)."""
    nd = len(node.get_partial_shape())
    if fmt == "channels_first":
        perm = [0, 3, 1, 2, *list(range(4, nd))]
        node = opset.transpose(node, i64(perm)).output(0)
    if single:
        node = opset.squeeze(node, i64([0])).output(0)
    return node


def channels_axis(data_format):
    return -1 if standardize_data_format(data_format) == "channels_last" else -3
