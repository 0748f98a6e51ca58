"""``mb.applications.vgg19``: VGG19; caffe convention (BGR, mean-centred)."""

from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_caffe as preprocess_input
from mb_applications._vgg import VGG19 as VGG19

__all__ = ["VGG19", "decode_predictions", "preprocess_input"]
