"""``mb.applications.resnet`` (``keras.applications.resnet``)."""

from mb_applications.resnet import *  # noqa: F403
from mb_applications.resnet import __all__ as __all__
