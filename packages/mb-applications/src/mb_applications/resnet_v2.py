"""``mb.applications.resnet_v2``: ResNetV2; inputs scaled to [-1, 1]."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_tf as preprocess_input
from mb_applications._resnet import ResNet50V2 as ResNet50V2
from mb_applications._resnet import ResNet101V2 as ResNet101V2
from mb_applications._resnet import ResNet152V2 as ResNet152V2

__all__ = ["ResNet50V2", "ResNet101V2", "ResNet152V2", "decode_predictions", "preprocess_input"]
