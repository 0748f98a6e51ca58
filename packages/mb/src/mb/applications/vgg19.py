"""``mb.applications.vgg19`` (``keras.applications.vgg19``)."""

from mb_applications.vgg19 import *  # noqa: F403
from mb_applications.vgg19 import __all__ as __all__
