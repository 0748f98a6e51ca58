"""``mb.applications.densenet`` (``keras.applications.densenet``)."""

from mb_applications.densenet import *  # noqa: F403
from mb_applications.densenet import __all__ as __all__
