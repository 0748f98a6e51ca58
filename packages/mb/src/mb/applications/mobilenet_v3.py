"""``mb.applications.mobilenet_v3`` (``keras.applications.mobilenet_v3``)."""

from mb_applications.mobilenet_v3 import *  # noqa: F403
from mb_applications.mobilenet_v3 import __all__ as __all__
