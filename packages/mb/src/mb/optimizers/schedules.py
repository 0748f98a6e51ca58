"""``mb.optimizers.schedules``: Keras 3's learning-rate schedules."""

from mb_train.optimizers.schedules import *  # noqa: F403
from mb_train.optimizers.schedules import __all__ as __all__
