"""``mb.optimizers.legacy``: Keras 3's ``keras.optimizers.legacy`` names, which only raise
an error saying which optimizer to use instead."""

from mb_train.optimizers.legacy import *  # noqa: F403
from mb_train.optimizers.legacy import __all__ as __all__
