"""``mb.saving``: Keras 3's ``keras.saving`` (``.keras`` files, safe by default)."""

from mb_saving import CustomObjectScope as CustomObjectScope
from mb_saving import KerasFileEditor as KerasFileEditor
from mb_saving import custom_object_scope as custom_object_scope
from mb_saving import deserialize_keras_object as deserialize_keras_object
from mb_saving import get_custom_objects as get_custom_objects
from mb_saving import get_registered_name as get_registered_name
from mb_saving import get_registered_object as get_registered_object
from mb_saving import load_model as load_model
from mb_saving import load_weights as load_weights
from mb_saving import register_keras_serializable as register_keras_serializable
from mb_saving import save_model as save_model
from mb_saving import save_weights as save_weights
from mb_saving import serialize_keras_object as serialize_keras_object

__all__ = [
    "CustomObjectScope",
    "KerasFileEditor",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "load_model",
    "load_weights",
    "register_keras_serializable",
    "save_model",
    "save_weights",
    "serialize_keras_object",
]
