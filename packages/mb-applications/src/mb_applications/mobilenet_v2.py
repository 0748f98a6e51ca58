"""``mb.applications.mobilenet_v2``: MobileNetV2; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._mobilenet import MobileNetV2 as MobileNetV2

__all__ = ["MobileNetV2", "decode_predictions", "preprocess_input"]
