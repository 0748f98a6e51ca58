"""``keras.utils.bounding_boxes``: converters, geometry and IoU of bounding boxes."""

from mb_layers._bounding_boxes.formats import convert_format as convert_format
from mb_layers._bounding_boxes.geometry import affine_transform as affine_transform
from mb_layers._bounding_boxes.geometry import clip_to_image_size as clip_to_image_size
from mb_layers._bounding_boxes.geometry import crop as crop
from mb_layers._bounding_boxes.geometry import decode_deltas_to_boxes as decode_deltas_to_boxes
from mb_layers._bounding_boxes.geometry import encode_box_to_deltas as encode_box_to_deltas
from mb_layers._bounding_boxes.geometry import pad as pad
from mb_layers._bounding_boxes.iou import compute_ciou as compute_ciou
from mb_layers._bounding_boxes.iou import compute_iou as compute_iou

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
