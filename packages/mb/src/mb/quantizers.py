"""``mb.quantizers``: Keras 3's ``keras.quantizers``."""

from mb_layers.quantizers import *  # noqa: F403
from mb_layers.quantizers import __all__ as __all__
