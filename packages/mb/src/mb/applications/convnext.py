"""``mb.applications.convnext`` (``keras.applications.convnext``)."""

from mb_applications.convnext import *  # noqa: F403
from mb_applications.convnext import __all__ as __all__
