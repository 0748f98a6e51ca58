"""``mb.applications.mobilenet_v2`` (``keras.applications.mobilenet_v2``)."""

from mb_applications.mobilenet_v2 import *  # noqa: F403
from mb_applications.mobilenet_v2 import __all__ as __all__
