"""``mb.datasets.cifar100`` (``keras.datasets.cifar100``)."""

from mb_data.datasets.cifar100 import load_data as load_data

__all__ = ["load_data"]
