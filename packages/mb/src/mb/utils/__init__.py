"""``mb.utils``: the parts of Keras 3's ``keras.utils`` that mb provides."""

from mb.utils import bounding_boxes as bounding_boxes
from mb.utils import legacy as legacy
from mb_data import PyDataset as PyDataset
from mb_data import array_to_img as array_to_img
from mb_data import audio_dataset_from_directory as audio_dataset_from_directory
from mb_data import get_file as get_file
from mb_data import image_dataset_from_directory as image_dataset_from_directory
from mb_data import img_to_array as img_to_array
from mb_data import load_img as load_img
from mb_data import normalize as normalize
from mb_data import pack_x_y_sample_weight as pack_x_y_sample_weight
from mb_data import pad_sequences as pad_sequences
from mb_data import save_img as save_img
from mb_data import split_dataset as split_dataset
from mb_data import text_dataset_from_directory as text_dataset_from_directory
from mb_data import timeseries_dataset_from_array as timeseries_dataset_from_array
from mb_data import to_categorical as to_categorical
from mb_data import unpack_x_y_sample_weight as unpack_x_y_sample_weight
from mb_graph import is_keras_tensor as is_keras_tensor
from mb_layers import FeatureSpace as FeatureSpace
from mb_layers import get_source_inputs as get_source_inputs
from mb_layers import model_to_dot as model_to_dot
from mb_layers import plot_model as plot_model
from mb_ops import clear_session as clear_session
from mb_ops.dtypes import standardize_dtype as standardize_dtype
from mb_ops.random import set_random_seed as set_random_seed
from mb_saving import CustomObjectScope as CustomObjectScope
from mb_saving import custom_object_scope as custom_object_scope
from mb_saving import deserialize_keras_object as deserialize_keras_object
from mb_saving import get_custom_objects as get_custom_objects
from mb_saving import get_registered_name as get_registered_name
from mb_saving import get_registered_object as get_registered_object
from mb_saving import register_keras_serializable as register_keras_serializable
from mb_saving import serialize_keras_object as serialize_keras_object
from mb_train.utils import Config as Config
from mb_train.utils import Progbar as Progbar
from mb_train.utils import disable_interactive_logging as disable_interactive_logging
from mb_train.utils import enable_interactive_logging as enable_interactive_logging
from mb_train.utils import is_interactive_logging_enabled as is_interactive_logging_enabled

Sequence = PyDataset

__all__ = [
    "Config",
    "CustomObjectScope",
    "FeatureSpace",
    "Progbar",
    "PyDataset",
    "Sequence",
    "array_to_img",
    "audio_dataset_from_directory",
    "bounding_boxes",
    "clear_session",
    "custom_object_scope",
    "deserialize_keras_object",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_custom_objects",
    "get_file",
    "get_registered_name",
    "get_registered_object",
    "get_source_inputs",
    "image_dataset_from_directory",
    "img_to_array",
    "is_interactive_logging_enabled",
    "is_keras_tensor",
    "legacy",
    "load_img",
    "model_to_dot",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "plot_model",
    "register_keras_serializable",
    "save_img",
    "serialize_keras_object",
    "set_random_seed",
    "split_dataset",
    "standardize_dtype",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
    "to_categorical",
    "unpack_x_y_sample_weight",
]
