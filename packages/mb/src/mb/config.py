"""``mb.config``: the settings Keras 3 keeps in ``keras.config``."""

import importlib

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

# Settings that live above mb_ops load with their package on first use, so that
# `import mb` stays cheap.
_LAZY = {
    "dtype_policy": "mb_layers.dtype_policies",
    "set_dtype_policy": "mb_layers.dtype_policies",
    "enable_unsafe_deserialization": "mb_saving",
}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mb.config' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_LAZY})
