"""``mb.ops.nn``: Keras 3's ``keras.ops.nn``."""

from mb_ops.nn import *  # noqa: F403
