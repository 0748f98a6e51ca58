"""``mb.datasets.imdb`` (``keras.datasets.imdb``)."""

from mb_data.datasets.imdb import get_word_index as get_word_index
from mb_data.datasets.imdb import load_data as load_data

__all__ = ["get_word_index", "load_data"]
