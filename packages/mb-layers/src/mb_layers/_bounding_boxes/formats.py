"""Converting boxes between Keras's nine formats, through ``xyxy``.

``xyxy`` / ``yxyx``: corners; ``xywh``: top-left corner and size; ``center_xywh`` /
``center_yxhw``: center and size; the ``rel_`` forms divide by the image's width and
height. Every function runs on the active backend's tensors (or NumPy arrays).
"""

from __future__ import annotations

from mb_layers._ops import ops

SUPPORTED_FORMATS = (
    "xyxy",
    "yxyx",
    "xywh",
    "center_xywh",
    "center_yxhw",
    "rel_xyxy",
    "rel_yxyx",
    "rel_xywh",
    "rel_center_xywh",
)


def _split(boxes):
    return ops.split(boxes, 4, axis=-1)


def _join(*parts):
    return ops.concatenate(list(parts), axis=-1)


def _to_xyxy(boxes, source, height, width):
    a, b, c, d = _split(boxes)
    if source == "xyxy":
        return boxes
    if source == "yxyx":
        return _join(b, a, d, c)
    if source == "xywh":
        return _join(a, b, a + c, b + d)
    if source == "center_xywh":
        return _join(a - c / 2.0, b - d / 2.0, a + c / 2.0, b + d / 2.0)
    if source == "center_yxhw":
        return _join(b - d / 2.0, a - c / 2.0, b + d / 2.0, a + c / 2.0)
    if source == "rel_xyxy":
        return _join(a * width, b * height, c * width, d * height)
    if source == "rel_yxyx":
        return _join(b * width, a * height, d * width, c * height)
    if source == "rel_xywh":
        return _join(a * width, b * height, (a + c) * width, (b + d) * height)
    # rel_center_xywh
    return _join(
        (a - c / 2.0) * width, (b - d / 2.0) * height, (a + c / 2.0) * width, (b + d / 2.0) * height
    )


def _from_xyxy(boxes, target, height, width):
    x1, y1, x2, y2 = _split(boxes)
    w, h = x2 - x1, y2 - y1
    if target == "xyxy":
        return boxes
    if target == "yxyx":
        return _join(y1, x1, y2, x2)
    if target == "xywh":
        return _join(x1, y1, w, h)
    if target == "center_xywh":
        return _join(x1 + w / 2.0, y1 + h / 2.0, w, h)
    if target == "center_yxhw":
        return _join(y1 + h / 2.0, x1 + w / 2.0, h, w)
    if target == "rel_xyxy":
        return _join(x1 / width, y1 / height, x2 / width, y2 / height)
    if target == "rel_yxyx":
        return _join(y1 / height, x1 / width, y2 / height, x2 / width)
    if target == "rel_xywh":
        return _join(x1 / width, y1 / height, w / width, h / height)
    # rel_center_xywh
    return _join((x1 + w / 2.0) / width, (y1 + h / 2.0) / height, w / width, h / height)


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """Boxes converted from format ``source`` to format ``target``.

    Args:
        boxes: a tensor ``(..., 4)``, or a dict whose ``"boxes"`` entry is one (the
            dict is updated and returned, as in Keras).
        source: the boxes' format (one of ``SUPPORTED_FORMATS``, any case).
        target: the format wanted.
        height: the image height, needed when either format is relative (``rel_``).
        width: the image width, likewise.
        dtype: the dtype of the result.

    Returns:
        The converted boxes, of dtype ``dtype``.

    Example:

    >>> import numpy as np
    >>> out = convert_format(np.array([[10.0, 20.0, 30.0, 60.0]]), "xyxy", "center_xywh")
    >>> np.asarray(out).tolist()
    [[20.0, 40.0, 20.0, 40.0]]
    """
    if isinstance(boxes, dict):
        boxes["boxes"] = convert_format(boxes["boxes"], source, target, height, width, dtype)
        return boxes
    shape = ops.shape(boxes)
    if shape[-1] != 4:
        raise ValueError(
            f"convert_format expects boxes whose last axis has 4 coordinates. Received shape "
            f"{tuple(shape)}."
        )
    source, target = source.lower(), target.lower()
    for name, value in (("source", source), ("target", target)):
        if value not in SUPPORTED_FORMATS:
            raise ValueError(
                f"Unknown bounding box format {name}={value!r}. Supported: {SUPPORTED_FORMATS}."
            )
    if (source.startswith("rel_") or target.startswith("rel_")) and (
        height is None or width is None
    ):
        raise ValueError(
            f"convert_format from {source!r} to {target!r} needs the image's height and width "
            f"(a relative format). Received height={height}, width={width}."
        )
    boxes = ops.cast(boxes, dtype)
    if source == target:
        return boxes
    if width is not None:
        width = ops.cast(width, dtype)
    if height is not None:
        height = ops.cast(height, dtype)
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    return _from_xyxy(_to_xyxy(boxes, source, height, width), target, height, width)
