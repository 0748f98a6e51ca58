"""``draw_bounding_boxes`` and ``draw_segmentation_masks``: annotations burnt into images.

Boxes and their labels are drawn with Pillow (Keras uses OpenCV, which mb does not
require): the same boxes, labels and colors, lines of the same thickness, text in
Pillow's font. Masks are blended as Keras blends them, number for number.
"""

from __future__ import annotations

import numpy as np

from mb_layers._bounding_boxes.formats import convert_format
from mb_layers._ops import ops
from mb_ops import config
from mb_ops.dtypes import standardize_dtype


def _batched(images, name="images"):
    shape = ops.shape(images)
    if len(shape) != 4:
        raise ValueError(
            f"`{name}` must be a batch of images (rank 4). Received shape {tuple(shape)}; "
            "add a batch axis, e.g. images[None]."
        )
    return shape


def _text_origin(x, y, font_scale, thickness):
    """Above the box when there is room, else just inside its top-left corner (Keras)."""
    font_height = int(font_scale * 12)
    if y - 8 - 2 * font_height > 0:
        return x, y - 8
    return x + 3, y + 2 * font_height + thickness + 3


def draw_bounding_boxes(
    images,
    bounding_boxes,
    bounding_box_format,
    class_mapping=None,
    color=(128, 128, 128),
    line_thickness=2,
    text_thickness=1,
    font_scale=1.0,
    data_format=None,
):
    """Images (uint8, channels last) with their boxes and class names drawn on them.

    Args:
        images: a batch ``(batch, height, width, channels)`` (channels first if
            ``data_format`` says so); floats in [0, 1] are scaled to [0, 255].
        bounding_boxes: a dict with ``"boxes"`` ``(batch, n, 4)``, ``"labels"``
            ``(batch, n)`` (label -1 is padding, not drawn) and optionally
            ``"confidences"``.
        bounding_box_format: the boxes' format (e.g. ``"xyxy"``).
        class_mapping: ``{label: name}``; labels in it get their name written.
        color: the RGB color of boxes and text.
        line_thickness: the boxes' line width in pixels.
        text_thickness: the text's stroke width.
        font_scale: the text size (1.0 is about 12 pixels).
        data_format: the images' layout; default mb's ``image_data_format``.

    Returns:
        A uint8 NumPy array ``(batch, height, width, channels)``.
    """
    from PIL import Image, ImageDraw, ImageFont

    class_mapping = class_mapping or {}
    text_thickness = text_thickness or line_thickness
    data_format = data_format or config.image_data_format()
    shape = _batched(images)
    if not isinstance(bounding_boxes, dict):
        raise TypeError(
            "`bounding_boxes` must be a dict with 'boxes' and 'labels'. Received "
            f"{type(bounding_boxes).__name__}."
        )
    if "boxes" not in bounding_boxes or "labels" not in bounding_boxes:
        raise ValueError(
            "`bounding_boxes` must have 'boxes' and 'labels'. Received keys "
            f"{sorted(bounding_boxes)}."
        )
    height, width = (shape[-3], shape[-2]) if data_format == "channels_last" else shape[-2:]
    boxes = convert_format(dict(bounding_boxes), bounding_box_format, "xyxy", height, width)
    images = np.asarray(ops.convert_to_numpy(images))
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)
    if images.dtype.kind == "f" and images.size:
        images = np.clip(images, 0, 1) * 255 if images.max() <= 1.0 else np.clip(images, 0, 255)
    images = images.astype("uint8")
    coords = np.asarray(ops.convert_to_numpy(boxes["boxes"]))
    labels = np.asarray(ops.convert_to_numpy(boxes["labels"]))
    confidences = boxes.get("confidences")
    if confidences is not None:
        confidences = np.asarray(ops.convert_to_numpy(confidences))
    font = ImageFont.load_default(size=max(int(font_scale * 12), 6))
    ink = tuple(int(c) for c in color)
    out = []
    for i, image in enumerate(images):
        gray = image.shape[-1] == 1
        canvas = Image.fromarray(image[..., 0] if gray else image)
        pen = ImageDraw.Draw(canvas)
        fill = int(np.mean(ink)) if gray else ink[: image.shape[-1]]
        for j, box in enumerate(coords[i]):
            label = int(labels[i][j])
            if label == -1:
                continue
            x1, y1, x2, y2 = (int(v) for v in box.astype("int32"))
            pen.rectangle(
                [min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)],
                outline=fill,
                width=line_thickness,
            )
            if label in class_mapping:
                text = str(class_mapping[label])
                if confidences is not None:
                    text = f"{text} | {confidences[i][j]:.2f}"
                x, y = _text_origin(x1, y1, font_scale, text_thickness)
                pen.text((x, y), text, fill=fill, font=font, anchor="ls")
        drawn = np.asarray(canvas)
        out.append(drawn[..., None] if gray else drawn)
    return np.stack(out, axis=0)


def _palette(num_classes):
    palette = np.array([2**25 - 1, 2**15 - 1, 2**21 - 1])
    return [((i * palette) % 255).tolist() for i in range(num_classes)]


def draw_segmentation_masks(
    images,
    segmentation_masks,
    num_classes=None,
    color_mapping=None,
    alpha=0.8,
    blend=True,
    ignore_index=-1,
    data_format=None,
):
    """Images with each class of their segmentation masks painted in its color.

    Args:
        images: a batch ``(batch, height, width, channels)`` (channels first if asked).
        segmentation_masks: integer class ids ``(batch, height, width, 1)``.
        num_classes: the number of classes; default the largest id in the masks
            plus one (Keras takes the largest id itself, which leaves that class
            unpainted, or fails on its NumPy backend).
        color_mapping: ``{class: (r, g, b)}``; default Keras's palette.
        alpha: the colors' weight when blending.
        blend: blend the colors with the image (uint8 result); False returns the
            painted float32 image.
        ignore_index: the id of pixels left as they are.
        data_format: the layout of images and masks; default ``image_data_format``.

    Returns:
        The painted images, channels last.
    """
    data_format = data_format or config.image_data_format()
    _batched(images)
    if data_format == "channels_first":
        images = ops.transpose(images, (0, 2, 3, 1))
        segmentation_masks = ops.transpose(segmentation_masks, (0, 2, 3, 1))
    images = ops.convert_to_tensor(images, dtype="float32")
    masks = ops.convert_to_tensor(segmentation_masks)
    dtype = standardize_dtype(ops.dtype(masks))
    if "int" not in dtype:
        raise TypeError(
            f"`segmentation_masks` must hold integer class ids. Received dtype {dtype}."
        )
    if num_classes is None:
        num_classes = int(ops.convert_to_numpy(ops.max(masks))) + 1
    colors = _palette(num_classes) if color_mapping is None else [
        color_mapping[i] for i in range(num_classes)
    ]  # fmt: skip
    valid = ops.squeeze(ops.not_equal(masks, ignore_index), axis=-1)
    one_hot = np.asarray(ops.convert_to_numpy(ops.one_hot(masks, num_classes)[..., 0, :]))
    painted = np.array(ops.convert_to_numpy(images), copy=True)
    for mask, color in zip(np.transpose(one_hot, (3, 0, 1, 2)).astype(bool), colors, strict=False):
        painted[mask, ...] = np.asarray(color, dtype=painted.dtype)[None, :]
    outputs = ops.convert_to_tensor(painted, dtype="float32")
    if not blend:
        return outputs
    outputs = images * (1 - alpha) + outputs * alpha
    outputs = ops.where(valid[..., None], outputs, images)
    return np.asarray(ops.convert_to_numpy(ops.cast(outputs, "uint8")))
