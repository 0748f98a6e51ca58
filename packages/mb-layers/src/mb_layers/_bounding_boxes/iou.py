"""Intersection over union of boxes: plain (pairwise) and complete (CIoU, element-wise)."""

from __future__ import annotations

import math

from mb_layers._bounding_boxes.formats import convert_format
from mb_layers._ops import ops
from mb_ops import config


def _area(boxes):
    y1, x1, y2, x2 = ops.split(boxes[..., :4], 4, axis=-1)
    return ops.squeeze((y2 - y1) * (x2 - x1), axis=-1)


def _intersection(boxes1, boxes2):
    y1a, x1a, y2a, x2a = ops.split(boxes1[..., :4], 4, axis=-1)
    y1b, x1b, y2b, x2b = ops.split(boxes2[..., :4], 4, axis=-1)
    perm = [1, 0] if len(boxes2.shape) == 2 else [0, 2, 1]
    top = ops.maximum(y1a, ops.transpose(y1b, perm))
    bottom = ops.minimum(y2a, ops.transpose(y2b, perm))
    left = ops.maximum(x1a, ops.transpose(x1b, perm))
    right = ops.minimum(x2a, ops.transpose(x2b, perm))
    zero = ops.cast(0, top.dtype)
    return ops.maximum(zero, bottom - top) * ops.maximum(zero, right - left)


def compute_iou(
    boxes1, boxes2, bounding_box_format, use_masking=False, mask_val=-1, image_shape=None
):
    """The IoU of every box of ``boxes1`` with every box of ``boxes2``.

    Args:
        boxes1: ``(n, 4)`` or ``(batch, n, 4)``.
        boxes2: ``(m, 4)`` or ``(batch, m, 4)``.
        bounding_box_format: the boxes' format.
        use_masking: give ``mask_val`` to pairs where a box is padding (all
            coordinates negative).
        mask_val: the value for masked pairs.
        image_shape: ``(height, width, channels)``, needed for relative formats.

    Returns:
        ``(n, m)`` (or ``(batch, n, m)``) IoUs.

    Example:

    >>> import numpy as np
    >>> a = np.array([[0.0, 0.0, 2.0, 2.0]])
    >>> b = np.array([[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 2.0, 2.0]])
    >>> [[round(float(v), 4) for v in row] for row in np.asarray(compute_iou(a, b, "xyxy"))]
    [[0.1429, 1.0]]
    """
    rank1, rank2 = len(ops.shape(boxes1)), len(ops.shape(boxes2))
    for name, rank in (("boxes1", rank1), ("boxes2", rank2)):
        if rank not in (2, 3):
            raise ValueError(
                f"compute_iou expects {name} of rank 2 (n, 4) or 3 (batch, n, 4). Received "
                f"rank {rank}."
            )
    if "rel" in bounding_box_format and image_shape is None:
        raise ValueError(
            f"compute_iou with the relative format {bounding_box_format!r} needs image_shape."
        )
    height, width = (None, None) if image_shape is None else image_shape[:2]
    boxes1 = convert_format(boxes1, bounding_box_format, "yxyx", height, width)
    boxes2 = convert_format(boxes2, bounding_box_format, "yxyx", height, width)
    intersection = _intersection(boxes1, boxes2)
    area1 = ops.expand_dims(_area(boxes1), axis=-1)
    area2 = _area(boxes2)
    area2 = ops.expand_dims(area2, axis=1 if len(area2.shape) == 2 else 0)
    iou = ops.divide(intersection, area1 + area2 - intersection + config.epsilon())
    if not use_masking:
        return iou
    perm = [1, 0] if rank1 == 2 else [0, 2, 1]
    padding1 = ops.less(ops.max(boxes1, axis=-1, keepdims=True), 0.0)
    padding2 = ops.less(ops.max(boxes2, axis=-1, keepdims=True), 0.0)
    masked = ops.logical_or(padding1, ops.transpose(padding2, perm))
    return ops.where(masked, ops.cast(mask_val, iou.dtype) * ops.ones_like(iou), iou)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """The complete IoU of boxes paired element-wise (IoU minus center-distance and
    aspect-ratio penalties), as Keras computes it for CIoU losses."""
    if "rel" in bounding_box_format:
        raise ValueError(
            f"compute_ciou does not take relative formats (as Keras). Received "
            f"{bounding_box_format!r}; convert the boxes to an absolute format first."
        )
    height, width = (None, None) if image_shape is None else image_shape[:2]
    eps = config.epsilon()
    boxes1 = convert_format(boxes1, bounding_box_format, "xyxy", height, width)
    boxes2 = convert_format(boxes2, bounding_box_format, "xyxy", height, width)
    x1a, y1a, x2a, y2a = ops.split(boxes1[..., :4], 4, axis=-1)
    x1b, y1b, x2b, y2b = ops.split(boxes2[..., :4], 4, axis=-1)
    w1, h1 = x2a - x1a, y2a - y1a + eps
    w2, h2 = x2b - x1b, y2b - y1b + eps
    inter = ops.maximum(ops.minimum(x2a, x2b) - ops.maximum(x1a, x1b), 0) * ops.maximum(
        ops.minimum(y2a, y2b) - ops.maximum(y1a, y1b), 0
    )
    union = w1 * h1 + w2 * h2 - inter + eps
    iou = ops.squeeze(ops.divide(inter, union + eps), axis=-1)
    hull_w = ops.maximum(x2a, x2b) - ops.minimum(x1a, x1b)
    hull_h = ops.maximum(y2a, y2b) - ops.minimum(y1a, y1b)
    diagonal = ops.squeeze(hull_w**2 + hull_h**2 + eps, axis=-1)
    centers = ops.squeeze(
        ((x1a + x2a) / 2 - (x1b + x2b) / 2) ** 2 + ((y1a + y2a) / 2 - (y1b + y2b) / 2) ** 2,
        axis=-1,
    )
    v = ops.squeeze(
        (4 / math.pi**2) * ops.power(ops.arctan(w2 / h2) - ops.arctan(w1 / h1), 2), axis=-1
    )
    alpha = v / (v - iou + (1 + eps))
    return iou - (centers / diagonal + v * alpha)
