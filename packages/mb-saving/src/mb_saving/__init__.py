"""mb-saving: the ``.keras`` archive and ``.weights.h5`` formats of mb, safe by default.

Files move between Keras 3 and mb both ways. Importing this package also
connects ``Model.save`` / ``save_weights`` / ``load_weights`` (mb_train) and
the registry of custom objects (mb_layers' deserializers).
"""

from mb_layers import _saving_hook as _layer_saving_hook
from mb_saving import _object_registry as _object_registry
from mb_saving._api import SavingImplementation as _SavingImplementation
from mb_saving._api import load_model as load_model
from mb_saving._api import load_weights as load_weights
from mb_saving._api import model_from_json as model_from_json
from mb_saving._api import save_model as save_model
from mb_saving._api import save_weights as save_weights
from mb_saving._atomic import atomic_file as atomic_file
from mb_saving._errors import DeserializationError as DeserializationError
from mb_saving._errors import FileFormatError as FileFormatError
from mb_saving._errors import UnsafeConfigError as UnsafeConfigError
from mb_saving._errors import UnsafeFileError as UnsafeFileError
from mb_saving._errors import WeightsMismatchError as WeightsMismatchError
from mb_saving._file_editor import KerasFileEditor as KerasFileEditor
from mb_saving._inspect import format_inspection as format_inspection
from mb_saving._inspect import inspect as inspect
from mb_saving._limits import get_max_expanded_bytes as get_max_expanded_bytes
from mb_saving._limits import set_max_expanded_bytes as set_max_expanded_bytes
from mb_saving._object_registry import CustomObjectScope as CustomObjectScope
from mb_saving._object_registry import custom_object_scope as custom_object_scope
from mb_saving._object_registry import get_custom_objects as get_custom_objects
from mb_saving._object_registry import get_registered_name as get_registered_name
from mb_saving._object_registry import get_registered_object as get_registered_object
from mb_saving._object_registry import (
    register_keras_serializable as register_keras_serializable,
)
from mb_saving._safe_mode import SafeModeScope as SafeModeScope
from mb_saving._safe_mode import enable_unsafe_deserialization as enable_unsafe_deserialization
from mb_saving._safe_mode import in_safe_mode as in_safe_mode
from mb_saving._serialization import deserialize_keras_object as deserialize_keras_object
from mb_saving._serialization import serialize_keras_object as serialize_keras_object
from mb_train import _saving_hook

_saving_hook.set_saving_implementation(_SavingImplementation)
# FeatureSpace.save (a layer that saves itself, as in Keras).
_layer_saving_hook.set_save_implementation(save_model)

__version__ = "0.1.0"
