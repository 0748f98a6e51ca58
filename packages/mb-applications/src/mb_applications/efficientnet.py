"""``mb.applications.efficientnet``: EfficientNet.

The model preprocesses its own input, so `preprocess_input` returns it unchanged.
"""

from mb_applications._efficientnet import EfficientNetB0 as EfficientNetB0
from mb_applications._efficientnet import EfficientNetB1 as EfficientNetB1
from mb_applications._efficientnet import EfficientNetB2 as EfficientNetB2
from mb_applications._efficientnet import EfficientNetB3 as EfficientNetB3
from mb_applications._efficientnet import EfficientNetB4 as EfficientNetB4
from mb_applications._efficientnet import EfficientNetB5 as EfficientNetB5
from mb_applications._efficientnet import EfficientNetB6 as EfficientNetB6
from mb_applications._efficientnet import EfficientNetB7 as EfficientNetB7
from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_identity as preprocess_input

__all__ = [
    "EfficientNetB0",
    "EfficientNetB1",
    "EfficientNetB2",
    "EfficientNetB3",
    "EfficientNetB4",
    "EfficientNetB5",
    "EfficientNetB6",
    "EfficientNetB7",
    "decode_predictions",
    "preprocess_input",
]
