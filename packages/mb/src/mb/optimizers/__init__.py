"""``mb.optimizers``: Keras 3's ``keras.optimizers``, with ``schedules`` and ``legacy``."""

from mb.optimizers import legacy as legacy
from mb.optimizers import schedules as schedules
from mb_train.optimizers import *  # noqa: F403
from mb_train.optimizers import __all__ as _names

__all__ = list(_names)
