"""``mb.applications.mobilenet``: MobileNet; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._mobilenet import MobileNet as MobileNet

__all__ = ["MobileNet", "decode_predictions", "preprocess_input"]
