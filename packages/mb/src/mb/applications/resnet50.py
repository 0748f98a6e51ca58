"""``mb.applications.resnet50`` (``keras.applications.resnet50``)."""

from mb_applications.resnet50 import *  # noqa: F403
from mb_applications.resnet50 import __all__ as __all__
