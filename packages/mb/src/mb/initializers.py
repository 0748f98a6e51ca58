"""``mb.initializers``: Keras 3's ``keras.initializers``."""

from mb_layers.initializers import *  # noqa: F403
