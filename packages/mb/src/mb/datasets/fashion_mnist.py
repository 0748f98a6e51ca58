"""``mb.datasets.fashion_mnist`` (``keras.datasets.fashion_mnist``)."""

from mb_data.datasets.fashion_mnist import load_data as load_data

__all__ = ["load_data"]
