"""``mb.optimizers``: Keras 3's ``keras.optimizers``, with ``schedules``."""

from mb.optimizers import schedules as schedules
from mb_train.optimizers import *  # noqa: F403
from mb_train.optimizers import __all__ as _names

__all__ = [*_names, "schedules"]
