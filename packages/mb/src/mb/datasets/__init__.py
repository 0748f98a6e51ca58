"""``mb.datasets``: Keras 3's built-in data sets (``keras.datasets``), as NumPy arrays."""

from mb.datasets import boston_housing as boston_housing
from mb.datasets import california_housing as california_housing
from mb.datasets import cifar10 as cifar10
from mb.datasets import cifar100 as cifar100
from mb.datasets import fashion_mnist as fashion_mnist
from mb.datasets import imdb as imdb
from mb.datasets import mnist as mnist
from mb.datasets import reuters as reuters

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
