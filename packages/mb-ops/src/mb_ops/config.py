"""Configuration of mb: the backend, floatx, epsilon and the image data format."""

from mb_ops._backends import backend as backend
from mb_ops._backends import set_backend as set_backend
from mb_ops._config import disable_flash_attention as disable_flash_attention
from mb_ops._config import disable_traceback_filtering as disable_traceback_filtering
from mb_ops._config import enable_flash_attention as enable_flash_attention
from mb_ops._config import enable_traceback_filtering as enable_traceback_filtering
from mb_ops._config import epsilon as epsilon
from mb_ops._config import floatx as floatx
from mb_ops._config import image_data_format as image_data_format
from mb_ops._config import is_flash_attention_enabled as is_flash_attention_enabled
from mb_ops._config import is_nnx_enabled as is_nnx_enabled
from mb_ops._config import is_traceback_filtering_enabled as is_traceback_filtering_enabled
from mb_ops._config import max_epochs as max_epochs
from mb_ops._config import max_steps_per_epoch as max_steps_per_epoch
from mb_ops._config import mb_home as mb_home
from mb_ops._config import set_epsilon as set_epsilon
from mb_ops._config import set_floatx as set_floatx
from mb_ops._config import set_image_data_format as set_image_data_format
from mb_ops._config import set_max_epochs as set_max_epochs
from mb_ops._config import set_max_steps_per_epoch as set_max_steps_per_epoch

__all__ = [
    "backend",
    "disable_flash_attention",
    "disable_traceback_filtering",
    "enable_flash_attention",
    "enable_traceback_filtering",
    "epsilon",
    "floatx",
    "image_data_format",
    "is_flash_attention_enabled",
    "is_nnx_enabled",
    "is_traceback_filtering_enabled",
    "max_epochs",
    "max_steps_per_epoch",
    "mb_home",
    "set_backend",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_max_epochs",
    "set_max_steps_per_epoch",
]
