"""``mb.applications.efficientnet`` (``keras.applications.efficientnet``)."""

from mb_applications.efficientnet import *  # noqa: F403
from mb_applications.efficientnet import __all__ as __all__
