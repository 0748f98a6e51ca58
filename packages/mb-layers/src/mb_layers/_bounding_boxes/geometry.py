"""Moving boxes with their image: clip, crop, pad, affine transforms, anchor deltas."""

from __future__ import annotations

import math

from mb_layers._bounding_boxes.formats import convert_format
from mb_layers._ops import ops
from mb_ops import config


def _xyxy_only(name, bounding_box_format):
    if bounding_box_format != "xyxy":
        raise NotImplementedError(
            f"{name} supports bounding_box_format='xyxy' only (as Keras). Received "
            f"{bounding_box_format!r}; convert first with convert_format."
        )


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """Boxes clipped to the image; labels of boxes left with no area become -1.

    Args:
        bounding_boxes: a dict with ``"boxes"`` (and optionally ``"labels"``).
        height: the image height (needed for ``"xyxy"``).
        width: the image width (needed for ``"xyxy"``).
        bounding_box_format: ``"xyxy"`` or ``"rel_xyxy"`` (clipped to [0, 1]).

    Returns:
        A copy of the dict with the clipped boxes (and updated labels).
    """
    if bounding_box_format not in ("xyxy", "rel_xyxy"):
        raise NotImplementedError(
            "clip_to_image_size supports 'xyxy' and 'rel_xyxy' (as Keras). Received "
            f"bounding_box_format={bounding_box_format!r}."
        )
    if bounding_box_format == "xyxy" and (height is None or width is None):
        raise ValueError("clip_to_image_size with format 'xyxy' needs height= and width=.")
    boxes = bounding_boxes["boxes"]
    labels = bounding_boxes.get("labels")
    if bounding_box_format == "xyxy":
        dtype = ops.dtype(boxes)
        width, height = ops.cast(width, dtype), ops.cast(height, dtype)
    else:
        height = width = 1.0
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    boxes = ops.concatenate(
        [ops.clip(x1, 0, width), ops.clip(y1, 0, height), ops.clip(x2, 0, width),
         ops.clip(y2, 0, height)],
        axis=-1,
    )  # fmt: skip
    result = dict(bounding_boxes)
    result["boxes"] = boxes
    if labels is not None:
        cx1, cy1, cx2, cy2 = ops.split(boxes, 4, axis=-1)
        areas = ops.squeeze((cx2 - cx1) * (cy2 - cy1), axis=-1)
        result["labels"] = ops.where(areas > 0, labels, -1)
    return result


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """Boxes in the frame of an image cropped at (``top``, ``left``) to ``height`` x ``width``."""
    _xyxy_only("crop", bounding_box_format)
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    return ops.concatenate(
        [ops.clip(x1 - left, 0, width), ops.clip(y1 - top, 0, height),
         ops.clip(x2 - left, 0, width), ops.clip(y2 - top, 0, height)],
        axis=-1,
    )  # fmt: skip


def pad(boxes, top, left, height=None, width=None, bounding_box_format="xyxy"):
    """Boxes in the frame of an image padded by ``top`` rows and ``left`` columns."""
    _xyxy_only("pad", bounding_box_format)
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    return ops.concatenate([x1 + left, y1 + top, x2 + left, y2 + top], axis=-1)


def _inverse_affine_matrix(
    center_x, center_y, angle, translate_x, translate_y, scale, shear_x, shear_y, height, width
):
    batch = ops.shape(angle)[0]
    dtype = angle.dtype
    angle, shear_x, shear_y = -angle, -shear_x, -shear_y
    cx = ops.multiply(center_x, width - 1)
    cy = ops.multiply(center_y, height - 1)
    rot = ops.multiply(angle, 1.0 / 180.0 * math.pi)
    tx = ops.multiply(-translate_x, width - 1)
    ty = ops.multiply(-translate_y, height - 1)
    sx = ops.multiply(shear_x, 1.0 / 180.0 * math.pi)
    sy = ops.multiply(shear_y, 1.0 / 180.0 * math.pi)
    cos_sy, tan_sx = ops.cos(sy), ops.tan(sx)
    a = ops.cos(rot - sy) / cos_sy
    b = a * tan_sx + ops.sin(rot)
    c = -ops.sin(rot - sy) / cos_sy
    d = ops.cos(rot) - c * tan_sx
    a0, a1 = ops.multiply(d, scale), ops.multiply(-b, scale)
    b0, b1 = ops.multiply(-c, scale), ops.multiply(a, scale)
    a2 = cx - a0 * (cx + tx) - a1 * (cy + ty)
    b2 = cy - b0 * (cx + tx) - b1 * (cy + ty)
    zeros, ones = ops.zeros([batch], dtype), ops.ones([batch], dtype)
    matrix = ops.stack([a0, a1, a2, b0, b1, b2, zeros, zeros, ones], axis=-1)
    return ops.reshape(matrix, [batch, 3, 3])


def affine_transform(
    boxes,
    angle,
    translate_x,
    translate_y,
    scale,
    shear_x,
    shear_y,
    height,
    width,
    center_x=None,
    center_y=None,
    bounding_box_format="xyxy",
):
    """Boxes ``(batch, n, 4)`` moved by a per-image affine transform (degrees, fractions).

    Each box's four corners are transformed and the result is their enclosing box,
    as Keras's augmentation layers move boxes.
    """
    _xyxy_only("affine_transform", bounding_box_format)
    shape = ops.shape(boxes)
    batch, n = shape[0], shape[1]
    matrix = _inverse_affine_matrix(
        0.5 if center_x is None else center_x, 0.5 if center_y is None else center_y, angle,
        translate_x, translate_y, scale, shear_x, shear_y, height, width,
    )  # fmt: skip
    boxes = ops.cast(boxes, matrix.dtype)
    corners = ops.stack(
        [boxes[..., 0], boxes[..., 1], boxes[..., 2], boxes[..., 1],
         boxes[..., 2], boxes[..., 3], boxes[..., 0], boxes[..., 3]],
        axis=-1,
    )  # fmt: skip
    corners = ops.reshape(corners, [batch, n, 4, 2])
    corners = ops.concatenate([corners, ops.ones([batch, n, 4, 1], corners.dtype)], axis=-1)
    moved = ops.einsum("bnxy,byz->bnxz", corners, ops.transpose(matrix[:, :2, :], [0, 2, 1]))
    return ops.concatenate([ops.min(moved, axis=2), ops.max(moved, axis=2)], axis=-1)


def _check_variance(variance):
    if variance is None:
        return None
    variance = ops.convert_to_tensor(variance, "float32")
    if variance.shape[-1] != 4:
        raise ValueError(f"variance must hold 4 values. Received {variance}.")
    return variance


def _check_encoding(name, value):
    if value not in ("center_xywh", "center_yxhw"):
        raise ValueError(f"{name} must be 'center_xywh' or 'center_yxhw'. Received {value!r}.")


def encode_box_to_deltas(
    anchors,
    boxes,
    anchor_format,
    box_format,
    encoding_format="center_yxhw",
    variance=None,
    image_shape=None,
):
    """Boxes as deltas from anchors: center offsets over the anchor size, log size ratios."""
    variance = _check_variance(variance)
    _check_encoding("encoding_format", encoding_format)
    height, width = (None, None) if image_shape is None else image_shape[:2]
    anchors = convert_format(anchors, anchor_format, encoding_format, height, width)
    boxes = convert_format(boxes, box_format, encoding_format, height, width)
    anchor_size = ops.maximum(anchors[..., 2:], config.epsilon())
    box_size = ops.maximum(boxes[..., 2:], config.epsilon())
    deltas = ops.concatenate(
        [(boxes[..., :2] - anchors[..., :2]) / anchor_size, ops.log(box_size / anchor_size)],
        axis=-1,
    )
    return deltas if variance is None else ops.divide(deltas, variance)


def decode_deltas_to_boxes(
    anchors,
    boxes_delta,
    anchor_format,
    box_format,
    encoded_format="center_yxhw",
    variance=None,
    image_shape=None,
):
    """The inverse of `encode_box_to_deltas` (per level when given dicts of levels)."""
    variance = _check_variance(variance)
    _check_encoding("encoded_format", encoded_format)
    height, width = (None, None) if image_shape is None else image_shape[:2]

    def decode(anchor, delta):
        anchor = convert_format(anchor, anchor_format, encoded_format, height, width)
        delta = ops.convert_to_tensor(delta, "float32")
        if variance is not None:
            delta = ops.multiply(delta, variance)
        box = ops.concatenate(
            [delta[..., :2] * anchor[..., 2:] + anchor[..., :2],
             ops.exp(delta[..., 2:]) * anchor[..., 2:]],
            axis=-1,
        )  # fmt: skip
        return convert_format(box, encoded_format, box_format, height, width)

    if isinstance(anchors, dict) and isinstance(boxes_delta, dict):
        return {level: decode(anchor, boxes_delta[level]) for level, anchor in anchors.items()}
    return decode(anchors, boxes_delta)
