"""Configuration of mb: the backend, floatx, epsilon and the image data format."""

from mb_ops._backends import backend as backend
from mb_ops._backends import set_backend as set_backend
from mb_ops._config import epsilon as epsilon
from mb_ops._config import floatx as floatx
from mb_ops._config import image_data_format as image_data_format
from mb_ops._config import mb_home as mb_home
from mb_ops._config import set_epsilon as set_epsilon
from mb_ops._config import set_floatx as set_floatx
from mb_ops._config import set_image_data_format as set_image_data_format

__all__ = [
    "backend",
    "epsilon",
    "floatx",
    "image_data_format",
    "mb_home",
    "set_backend",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
]
