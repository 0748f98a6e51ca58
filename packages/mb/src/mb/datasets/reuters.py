"""``mb.datasets.reuters`` (``keras.datasets.reuters``)."""

from mb_data.datasets.reuters import get_label_names as get_label_names
from mb_data.datasets.reuters import get_word_index as get_word_index
from mb_data.datasets.reuters import load_data as load_data

__all__ = ["get_label_names", "get_word_index", "load_data"]
