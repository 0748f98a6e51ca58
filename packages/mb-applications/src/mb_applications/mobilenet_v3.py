"""``mb.applications.mobilenet_v3``: MobileNetV3Small and MobileNetV3Large's conventions.

The model preprocesses its own input, so `preprocess_input` returns it unchanged.
"""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_identity as preprocess_input

__all__ = ["decode_predictions", "preprocess_input"]
