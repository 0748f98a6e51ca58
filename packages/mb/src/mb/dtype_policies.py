"""``mb.dtype_policies``: Keras 3's ``keras.dtype_policies``."""

from mb_layers.dtype_policies import *  # noqa: F403
