"""``mb.callbacks``: Keras 3's ``keras.callbacks``."""

from mb_train.callbacks import *  # noqa: F403
from mb_train.callbacks import __all__ as __all__
