"""``mb.applications.vgg16`` (``keras.applications.vgg16``)."""

from mb_applications.vgg16 import *  # noqa: F403
from mb_applications.vgg16 import __all__ as __all__
