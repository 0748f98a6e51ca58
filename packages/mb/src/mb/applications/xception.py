"""``mb.applications.xception`` (``keras.applications.xception``)."""

from mb_applications.xception import *  # noqa: F403
from mb_applications.xception import __all__ as __all__
