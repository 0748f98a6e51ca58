"""``mb.losses``: Keras 3's ``keras.losses``."""

from mb_train.losses import *  # noqa: F403
from mb_train.losses import __all__ as __all__
