"""``mb.applications.xception``: Xception; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._xception import Xception as Xception

__all__ = ["Xception", "decode_predictions", "preprocess_input"]
