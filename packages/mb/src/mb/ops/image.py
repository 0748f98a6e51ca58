"""``mb.ops.image``: Keras 3's ``keras.ops.image``."""

from mb_ops.image import *  # noqa: F403
