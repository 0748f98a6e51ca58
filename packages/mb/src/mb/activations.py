"""``mb.activations``: Keras 3's ``keras.activations``."""

from mb_layers.activations import *  # noqa: F403
