"""Keras's built-in data sets (``keras.datasets``), read from the same cache as Keras.

Each module has ``load_data`` with Keras 3's arguments and results (NumPy arrays),
downloading through `mb_data.get_file` into ``~/.keras/datasets`` (or
``$MB_HOME``/``$KERAS_HOME``), so files a Keras user already has are reused.
"""

from mb_data.datasets import boston_housing as boston_housing
from mb_data.datasets import california_housing as california_housing
from mb_data.datasets import cifar10 as cifar10
from mb_data.datasets import cifar100 as cifar100
from mb_data.datasets import fashion_mnist as fashion_mnist
from mb_data.datasets import imdb as imdb
from mb_data.datasets import mnist as mnist
from mb_data.datasets import reuters as reuters

__all__ = [
    "boston_housing",
    "california_housing",
    "cifar10",
    "cifar100",
    "fashion_mnist",
    "imdb",
    "mnist",
    "reuters",
]
