"""``mb.applications.resnet50``: ResNet50; caffe convention (BGR, mean-centred)."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_caffe as preprocess_input
from mb_applications._resnet import ResNet50 as ResNet50

__all__ = ["ResNet50", "decode_predictions", "preprocess_input"]
