"""Data adapters and the epoch iterator of mb: every input pipeline feeds every backend."""

from mb_data._adapters.array import ArrayDataAdapter as ArrayDataAdapter
from mb_data._adapters.base import DataAdapter as DataAdapter
from mb_data._adapters.generator import GeneratorDataAdapter as GeneratorDataAdapter
from mb_data._adapters.grain_dataset import GrainDatasetAdapter as GrainDatasetAdapter
from mb_data._adapters.py_dataset import PyDatasetAdapter as PyDatasetAdapter
from mb_data._adapters.tf_dataset import TFDatasetAdapter as TFDatasetAdapter
from mb_data._adapters.torch_loader import TorchDataLoaderAdapter as TorchDataLoaderAdapter
from mb_data._array_utils import pad_sequences as pad_sequences
from mb_data._array_utils import split_dataset as split_dataset
from mb_data._array_utils import to_categorical as to_categorical
from mb_data._epoch_iterator import EpochIterator as EpochIterator
from mb_data._epoch_iterator import OutOfDataWarning as OutOfDataWarning
from mb_data._packing import class_weight_to_sample_weights as class_weight_to_sample_weights
from mb_data._packing import pack_x_y_sample_weight as pack_x_y_sample_weight
from mb_data._packing import train_validation_split as train_validation_split
from mb_data._packing import unpack_x_y_sample_weight as unpack_x_y_sample_weight
from mb_data._py_dataset import PyDataset as PyDataset
from mb_data._select import get_data_adapter as get_data_adapter

__all__ = [
    "ArrayDataAdapter",
    "DataAdapter",
    "EpochIterator",
    "GeneratorDataAdapter",
    "GrainDatasetAdapter",
    "OutOfDataWarning",
    "PyDataset",
    "PyDatasetAdapter",
    "TFDatasetAdapter",
    "TorchDataLoaderAdapter",
    "class_weight_to_sample_weights",
    "get_data_adapter",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "split_dataset",
    "to_categorical",
    "train_validation_split",
    "unpack_x_y_sample_weight",
]
