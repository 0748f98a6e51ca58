"""``mb.utils.bounding_boxes`` (``keras.utils.bounding_boxes``)."""

from mb_layers.bounding_boxes import affine_transform as affine_transform
from mb_layers.bounding_boxes import clip_to_image_size as clip_to_image_size
from mb_layers.bounding_boxes import compute_ciou as compute_ciou
from mb_layers.bounding_boxes import compute_iou as compute_iou
from mb_layers.bounding_boxes import convert_format as convert_format
from mb_layers.bounding_boxes import crop as crop
from mb_layers.bounding_boxes import decode_deltas_to_boxes as decode_deltas_to_boxes
from mb_layers.bounding_boxes import encode_box_to_deltas as encode_box_to_deltas
from mb_layers.bounding_boxes import pad as pad

__all__ = [
    "affine_transform",
    "clip_to_image_size",
    "compute_ciou",
    "compute_iou",
    "convert_format",
    "crop",
    "decode_deltas_to_boxes",
    "encode_box_to_deltas",
    "pad",
]
