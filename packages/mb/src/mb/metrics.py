"""``mb.metrics``: Keras 3's ``keras.metrics``."""

from mb_train.metrics import *  # noqa: F403
from mb_train.metrics import __all__ as __all__
