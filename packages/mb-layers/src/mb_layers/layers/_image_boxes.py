"""Bounding boxes moved with their images: the box math the geometric image layers share.

Boxes arrive as Keras's dict (``"boxes"`` ``(batch, n, 4)`` in the layer's
``bounding_box_format``, ``"labels"`` ``(batch, n)``). A layer converts them
to ``"xyxy"`` pixels of the input image, moves them, clips them to the output
image (a box left with no area gets the label -1, as in Keras) and converts
them back to its format in the output image's size.
"""

from mb_layers._bounding_boxes.formats import convert_format
from mb_layers._bounding_boxes.geometry import clip_to_image_size
from mb_layers._ops import ops


def to_xyxy(bounding_boxes, source, height, width):
    """A copy of the dict with its boxes in ``"xyxy"`` pixels of a ``height x width`` image."""
    out = dict(bounding_boxes)
    out["boxes"] = convert_format(bounding_boxes["boxes"], source, "xyxy", height, width)
    return out


def from_xyxy(bounding_boxes, target, height, width):
    """A copy of the dict with its ``"xyxy"`` boxes clipped to the image, in `target`."""
    out = clip_to_image_size(dict(bounding_boxes), height, width, "xyxy")
    out["boxes"] = convert_format(out["boxes"], "xyxy", target, height, width)
    return out


def _per_box(value, boxes):
    """A scalar, or a per-image ``(batch, 1)`` value, broadcast over ``(batch, n, 1)``."""
    value = ops.cast(ops.convert_to_tensor(value), boxes.dtype)
    if len(boxes.shape) == 3 and len(value.shape) == 2:
        value = ops.expand_dims(value, -1)
    return value


def clipped_window(bounding_boxes, h_end, h_start, w_end, w_start):
    """Keras's ``get_clipped_bbox``: xyxy boxes clipped to a window, in the window's frame."""
    boxes = bounding_boxes["boxes"]
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    h_end, h_start = _per_box(h_end, boxes), _per_box(h_start, boxes)
    w_end, w_start = _per_box(w_end, boxes), _per_box(w_start, boxes)
    out = dict(bounding_boxes)
    out["boxes"] = ops.concatenate(
        [ops.clip(x1, w_start, w_end) - w_start, ops.clip(y1, h_start, h_end) - h_start,
         ops.clip(x2, w_start, w_end) - w_start, ops.clip(y2, h_start, h_end) - h_start],
        axis=-1,
    )  # fmt: skip
    return out


def shifted(bounding_boxes, w_shift_factor, h_shift_factor):
    """Keras's ``get_shifted_bbox``: xyxy boxes moved by ``(-w_shift, -h_shift)``."""
    boxes = bounding_boxes["boxes"]
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    dx, dy = _per_box(w_shift_factor, boxes), _per_box(h_shift_factor, boxes)
    out = dict(bounding_boxes)
    out["boxes"] = ops.concatenate([x1 - dx, y1 - dy, x2 - dx, y2 - dy], axis=-1)
    return out


def transformed_x_y(x, y, transform):
    """Keras's ``get_transformed_x_y``: the point ``(x, y)`` mapped by ``(batch, 8)``
    transforms (``ops.image.affine_transform``'s), each result ``(batch, 1)``."""
    a0, a1, a2, b0, b1, b2, c0, c1 = ops.split(ops.convert_to_tensor(transform), 8, axis=-1)
    k = c0 * x + c1 * y + 1.0
    return (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k


def inverse_transforms(transforms):
    """The ``(batch, 8)`` projective transforms that undo `transforms` (same layout)."""
    a, b, c, d, e, f, g, h = ops.split(ops.cast(transforms, "float32"), 8, axis=-1)
    # The adjugate of [[a, b, c], [d, e, f], [g, h, 1]], scaled so its last entry is 1.
    m00, m01, m02 = e - f * h, c * h - b, b * f - c * e
    m10, m11, m12 = f * g - d, a - c * g, c * d - a * f
    m20, m21, m22 = d * h - e * g, b * g - a * h, a * e - b * d
    parts = [m00, m01, m02, m10, m11, m12, m20, m21]
    return ops.concatenate([p / m22 for p in parts], axis=-1)


def map_boxes(bounding_boxes, transforms):
    """xyxy boxes ``(batch, n, 4)`` as the boxes enclosing their corners mapped by the
    per-image ``(batch, 8)`` projective `transforms` (input point to output point)."""
    boxes = bounding_boxes["boxes"]
    x1, y1, x2, y2 = (ops.squeeze(p, -1) for p in ops.split(boxes, 4, axis=-1))
    coefficients = ops.split(ops.cast(transforms, boxes.dtype), 8, axis=-1)
    a0, a1, a2, b0, b1, b2, c0, c1 = coefficients  # each (batch, 1): broadcast over n
    xs, ys = [], []
    for x, y in ((x1, y1), (x2, y1), (x1, y2), (x2, y2)):
        k = c0 * x + c1 * y + 1.0
        xs.append((a0 * x + a1 * y + a2) / k)
        ys.append((b0 * x + b1 * y + b2) / k)
    xs, ys = ops.stack(xs, axis=-1), ops.stack(ys, axis=-1)
    out = dict(bounding_boxes)
    out["boxes"] = ops.stack(
        [ops.min(xs, axis=-1), ops.min(ys, axis=-1), ops.max(xs, axis=-1), ops.max(ys, axis=-1)],
        axis=-1,
    )
    return out


def homography(start_points, end_points):
    """The ``(batch, 8)`` projective transforms taking each of the 4 `start_points` to
    its `end_points` (both ``(batch, 4, 2)``): the solution of 8 linear equations."""
    start = ops.cast(start_points, "float32")
    end = ops.cast(end_points, "float32")
    rows = []
    for i in range(4):
        sx, sy, ex, ey = start[:, i, 0], start[:, i, 1], end[:, i, 0], end[:, i, 1]
        one, zero = ops.ones_like(sx), ops.zeros_like(sx)
        rows.append(ops.stack([sx, sy, one, zero, zero, zero, -ex * sx, -ex * sy], axis=-1))
        rows.append(ops.stack([zero, zero, zero, sx, sy, one, -ey * sx, -ey * sy], axis=-1))
    matrix = ops.stack(rows, axis=1)
    target = ops.reshape(end, (-1, 8, 1))
    return ops.reshape(ops.solve(matrix, target), (-1, 8))
