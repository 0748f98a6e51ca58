"""``mb.regularizers``: Keras 3's ``keras.regularizers``."""

from mb_layers.regularizers import *  # noqa: F403
