"""``mb.constraints``: Keras 3's ``keras.constraints``."""

from mb_layers.constraints import *  # noqa: F403
