"""``mb.applications.mobilenet`` (``keras.applications.mobilenet``)."""

from mb_applications.mobilenet import *  # noqa: F403
from mb_applications.mobilenet import __all__ as __all__
