"""``mb.applications.resnet_v2`` (``keras.applications.resnet_v2``)."""

from mb_applications.resnet_v2 import *  # noqa: F403
from mb_applications.resnet_v2 import __all__ as __all__
