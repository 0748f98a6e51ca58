"""``mb.applications.nasnet`` (``keras.applications.nasnet``)."""

from mb_applications.nasnet import *  # noqa: F403
from mb_applications.nasnet import __all__ as __all__
