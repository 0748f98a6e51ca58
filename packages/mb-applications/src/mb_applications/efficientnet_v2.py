"""``mb.applications.efficientnet_v2``: EfficientNetV2.

The model preprocesses its own input, so `preprocess_input` returns it unchanged.
"""

from mb_applications._efficientnet_v2 import EfficientNetV2B0 as EfficientNetV2B0
from mb_applications._efficientnet_v2 import EfficientNetV2B1 as EfficientNetV2B1
from mb_applications._efficientnet_v2 import EfficientNetV2B2 as EfficientNetV2B2
from mb_applications._efficientnet_v2 import EfficientNetV2B3 as EfficientNetV2B3
from mb_applications._efficientnet_v2 import EfficientNetV2L as EfficientNetV2L
from mb_applications._efficientnet_v2 import EfficientNetV2M as EfficientNetV2M
from mb_applications._efficientnet_v2 import EfficientNetV2S as EfficientNetV2S
from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_identity as preprocess_input

__all__ = [
    "EfficientNetV2B0",
    "EfficientNetV2B1",
    "EfficientNetV2B2",
    "EfficientNetV2B3",
    "EfficientNetV2L",
    "EfficientNetV2M",
    "EfficientNetV2S",
    "decode_predictions",
    "preprocess_input",
]
