"""``mb.preprocessing.sequence`` (``keras.preprocessing.sequence``)."""

from mb_data import pad_sequences as pad_sequences

__all__ = ["pad_sequences"]
