"""``mb.applications.inception_v3``: InceptionV3; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._inception import InceptionV3 as InceptionV3

__all__ = ["InceptionV3", "decode_predictions", "preprocess_input"]
