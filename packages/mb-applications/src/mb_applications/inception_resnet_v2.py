"""``mb.applications.inception_resnet_v2``: InceptionResNetV2; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._inception import InceptionResNetV2 as InceptionResNetV2

__all__ = ["InceptionResNetV2", "decode_predictions", "preprocess_input"]
