"""Data adapters and the epoch iterator of mb: every input pipeline feeds every backend."""

from mb_data._adapters.array import ArrayDataAdapter as ArrayDataAdapter
from mb_data._adapters.base import DataAdapter as DataAdapter
from mb_data._adapters.generator import GeneratorDataAdapter as GeneratorDataAdapter
from mb_data._adapters.grain_dataset import GrainDatasetAdapter as GrainDatasetAdapter
from mb_data._adapters.py_dataset import PyDatasetAdapter as PyDatasetAdapter
from mb_data._adapters.tf_dataset import TFDatasetAdapter as TFDatasetAdapter
from mb_data._adapters.torch_loader import TorchDataLoaderAdapter as TorchDataLoaderAdapter
from mb_data._array_utils import normalize as normalize
from mb_data._array_utils import pad_sequences as pad_sequences
from mb_data._array_utils import to_categorical as to_categorical
from mb_data._directory.audio import audio_dataset_from_directory as audio_dataset_from_directory
from mb_data._directory.images import image_dataset_from_directory as image_dataset_from_directory
from mb_data._directory.text import text_dataset_from_directory as text_dataset_from_directory
from mb_data._epoch_iterator import EpochIterator as EpochIterator
from mb_data._epoch_iterator import OutOfDataWarning as OutOfDataWarning
from mb_data._files.archive import extract_archive as extract_archive
from mb_data._files.get_file import default_cache_dir as default_cache_dir
from mb_data._files.get_file import get_file as get_file
from mb_data._files.hashing import hash_file as hash_file
from mb_data._files.hashing import validate_file as validate_file
from mb_data._image_utils import array_to_img as array_to_img
from mb_data._image_utils import img_to_array as img_to_array
from mb_data._image_utils import load_img as load_img
from mb_data._image_utils import save_img as save_img
from mb_data._image_utils import smart_resize as smart_resize
from mb_data._packing import class_weight_to_sample_weights as class_weight_to_sample_weights
from mb_data._packing import pack_x_y_sample_weight as pack_x_y_sample_weight
from mb_data._packing import train_validation_split as train_validation_split
from mb_data._packing import unpack_x_y_sample_weight as unpack_x_y_sample_weight
from mb_data._py_dataset import PyDataset as PyDataset
from mb_data._select import get_data_adapter as get_data_adapter
from mb_data._sharding import DataSharding as DataSharding
from mb_data._split import split_dataset as split_dataset
from mb_data._timeseries import timeseries_dataset_from_array as timeseries_dataset_from_array

__all__ = [
    "ArrayDataAdapter",
    "DataAdapter",
    "DataSharding",
    "EpochIterator",
    "GeneratorDataAdapter",
    "GrainDatasetAdapter",
    "OutOfDataWarning",
    "PyDataset",
    "PyDatasetAdapter",
    "TFDatasetAdapter",
    "TorchDataLoaderAdapter",
    "array_to_img",
    "audio_dataset_from_directory",
    "class_weight_to_sample_weights",
    "default_cache_dir",
    "extract_archive",
    "get_data_adapter",
    "get_file",
    "hash_file",
    "image_dataset_from_directory",
    "img_to_array",
    "load_img",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "save_img",
    "smart_resize",
    "split_dataset",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
    "to_categorical",
    "train_validation_split",
    "unpack_x_y_sample_weight",
    "validate_file",
]
