"""``mb.config``: the settings Keras 3 keeps in ``keras.config``."""

import importlib

from mb_ops.config import backend as backend
from mb_ops.config import disable_flash_attention as disable_flash_attention
from mb_ops.config import disable_traceback_filtering as disable_traceback_filtering
from mb_ops.config import enable_flash_attention as enable_flash_attention
from mb_ops.config import enable_traceback_filtering as enable_traceback_filtering
from mb_ops.config import epsilon as epsilon
from mb_ops.config import floatx as floatx
from mb_ops.config import image_data_format as image_data_format
from mb_ops.config import is_flash_attention_enabled as is_flash_attention_enabled
from mb_ops.config import is_nnx_enabled as is_nnx_enabled
from mb_ops.config import is_traceback_filtering_enabled as is_traceback_filtering_enabled
from mb_ops.config import max_epochs as max_epochs
from mb_ops.config import max_steps_per_epoch as max_steps_per_epoch
from mb_ops.config import set_backend as set_backend
from mb_ops.config import set_epsilon as set_epsilon
from mb_ops.config import set_floatx as set_floatx
from mb_ops.config import set_image_data_format as set_image_data_format
from mb_ops.config import set_max_epochs as set_max_epochs
from mb_ops.config import set_max_steps_per_epoch as set_max_steps_per_epoch

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
    "set_backend",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_max_epochs",
    "set_max_steps_per_epoch",
]

# Settings that live above mb_ops load with their package on first use, so that
# `import mb` stays cheap.
_LAZY = {
    "dtype_policy": "mb_layers.dtype_policies",
    "set_dtype_policy": "mb_layers.dtype_policies",
    "enable_unsafe_deserialization": "mb_saving",
    "enable_interactive_logging": "mb_train.utils",
    "disable_interactive_logging": "mb_train.utils",
    "is_interactive_logging_enabled": "mb_train.utils",
}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mb.config' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_LAZY})
