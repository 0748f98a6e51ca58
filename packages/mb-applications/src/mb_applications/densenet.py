"""``mb.applications.densenet``: DenseNet; torch convention (scaled to [0, 1], standardised)."""

from mb_applications._densenet import DenseNet121 as DenseNet121
from mb_applications._densenet import DenseNet169 as DenseNet169
from mb_applications._densenet import DenseNet201 as DenseNet201
from mb_applications._imagenet import decode_predictions as decode_predictions
from mb_applications._imagenet import preprocess_torch as preprocess_input

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "decode_predictions", "preprocess_input"]
