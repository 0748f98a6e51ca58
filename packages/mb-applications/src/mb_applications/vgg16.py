"""``mb.applications.vgg16``: VGG16; caffe convention (BGR, mean-centred)."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_caffe as preprocess_input
from mb_applications._vgg import VGG16 as VGG16

__all__ = ["VGG16", "decode_predictions", "preprocess_input"]
