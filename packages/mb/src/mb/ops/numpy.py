"""``mb.ops.numpy``: Keras 3's ``keras.ops.numpy``."""

from mb_ops.numpy import *  # noqa: F403
