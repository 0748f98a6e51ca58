"""``mb.utils.legacy`` (``keras.utils.legacy``): the legacy object serialization."""

from mb_saving.legacy import deserialize_keras_object as deserialize_keras_object
from mb_saving.legacy import serialize_keras_object as serialize_keras_object

__all__ = ["deserialize_keras_object", "serialize_keras_object"]
