"""``mb.config``: the settings Keras 3 keeps in ``keras.config``."""

from mb_ops.config import backend as backend
from mb_ops.config import epsilon as epsilon
from mb_ops.config import floatx as floatx
from mb_ops.config import image_data_format as image_data_format
from mb_ops.config import set_backend as set_backend
from mb_ops.config import set_epsilon as set_epsilon
from mb_ops.config import set_floatx as set_floatx
from mb_ops.config import set_image_data_format as set_image_data_format

__all__ = [
    "backend",
    "epsilon",
    "floatx",
    "image_data_format",
    "set_backend",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
]
