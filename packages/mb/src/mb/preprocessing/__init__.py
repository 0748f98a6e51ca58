"""``mb.preprocessing`` (``keras.preprocessing``): folder and series datasets, image and
sequence helpers."""

from mb.preprocessing import image as image
from mb.preprocessing import sequence as sequence
from mb_data import image_dataset_from_directory as image_dataset_from_directory
from mb_data import text_dataset_from_directory as text_dataset_from_directory
from mb_data import timeseries_dataset_from_array as timeseries_dataset_from_array

__all__ = [
    "image",
    "image_dataset_from_directory",
    "sequence",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
]
