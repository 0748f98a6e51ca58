"""``mb.datasets.mnist`` (``keras.datasets.mnist``)."""

from mb_data.datasets.mnist import load_data as load_data

__all__ = ["load_data"]
