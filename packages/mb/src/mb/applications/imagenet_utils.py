"""``mb.applications.imagenet_utils`` (``keras.applications.imagenet_utils``)."""

from mb_applications.imagenet_utils import *  # noqa: F403
from mb_applications.imagenet_utils import __all__ as __all__
