"""``mb.random``: Keras 3's ``keras.random`` (random draws with explicit seeds)."""

from mb_ops.random import *  # noqa: F403
from mb_ops.random import __all__ as __all__
