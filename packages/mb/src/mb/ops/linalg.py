"""``mb.ops.linalg``: Keras 3's ``keras.ops.linalg``."""

from mb_ops.linalg import *  # noqa: F403
