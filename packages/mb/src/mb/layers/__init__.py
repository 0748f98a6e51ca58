"""``mb.layers``: Keras 3's ``keras.layers``."""

from mb_layers import Input as Input
from mb_layers import InputLayer as InputLayer
from mb_layers import InputSpec as InputSpec
from mb_layers import Layer as Layer
from mb_layers.layers import *  # noqa: F403
