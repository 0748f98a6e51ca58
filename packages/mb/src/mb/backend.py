"""``mb.backend``: the names Keras 3 keeps in ``keras.backend``."""

from mb_graph import is_keras_tensor as is_keras_tensor
from mb_ops import clear_session as clear_session
from mb_ops import get_uid as get_uid
from mb_ops.config import backend as backend
from mb_ops.config import epsilon as epsilon
from mb_ops.config import floatx as floatx
from mb_ops.config import image_data_format as image_data_format
from mb_ops.config import set_epsilon as set_epsilon
from mb_ops.config import set_floatx as set_floatx
from mb_ops.config import set_image_data_format as set_image_data_format
from mb_ops.dtypes import is_float_dtype as is_float_dtype
from mb_ops.dtypes import is_int_dtype as is_int_dtype
from mb_ops.dtypes import result_type as result_type
from mb_ops.dtypes import standardize_dtype as standardize_dtype

__all__ = [
    "backend",
    "clear_session",
    "epsilon",
    "floatx",
    "get_uid",
    "image_data_format",
    "is_float_dtype",
    "is_int_dtype",
    "is_keras_tensor",
    "result_type",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "standardize_dtype",
]
