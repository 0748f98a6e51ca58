"""``mb.applications.nasnet``: NASNet; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._nasnet import NASNetLarge as NASNetLarge
from mb_applications._nasnet import NASNetMobile as NASNetMobile

__all__ = ["NASNetLarge", "NASNetMobile", "decode_predictions", "preprocess_input"]
