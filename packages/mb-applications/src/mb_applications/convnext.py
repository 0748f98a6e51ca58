"""``mb.applications.convnext``: ConvNeXt.

The model preprocesses its own input, so `preprocess_input` returns it unchanged.
"""

from mb_applications._convnext import ConvNeXtBase as ConvNeXtBase
from mb_applications._convnext import ConvNeXtLarge as ConvNeXtLarge
from mb_applications._convnext import ConvNeXtSmall as ConvNeXtSmall
from mb_applications._convnext import ConvNeXtTiny as ConvNeXtTiny
from mb_applications._convnext import ConvNeXtXLarge as ConvNeXtXLarge
from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_identity as preprocess_input

__all__ = [
    "ConvNeXtBase",
    "ConvNeXtLarge",
    "ConvNeXtSmall",
    "ConvNeXtTiny",
    "ConvNeXtXLarge",
    "decode_predictions",
    "preprocess_input",
]
