"""``mb.datasets.cifar10`` (``keras.datasets.cifar10``)."""

from mb_data.datasets.cifar10 import load_data as load_data

__all__ = ["load_data"]
