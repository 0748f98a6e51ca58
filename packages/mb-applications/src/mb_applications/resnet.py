"""``mb.applications.resnet``: ResNet; caffe convention (BGR, mean-centred)."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_caffe as preprocess_input
from mb_applications._resnet import ResNet50 as ResNet50
from mb_applications._resnet import ResNet101 as ResNet101
from mb_applications._resnet import ResNet152 as ResNet152

__all__ = ["ResNet50", "ResNet101", "ResNet152", "decode_predictions", "preprocess_input"]
