"""``mb.applications.imagenet_utils``: the ImageNet conventions every model module uses."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_input as preprocess_input

__all__ = ["decode_predictions", "preprocess_input"]
