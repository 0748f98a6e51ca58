"""Fashion-MNIST: 28x28 grayscale images of 10 kinds of clothing (a drop-in for MNIST).

Labels: 0 T-shirt/top, 1 Trouser, 2 Pullover, 3 Dress, 4 Coat, 5 Sandal, 6 Shirt,
7 Sneaker, 8 Bag, 9 Ankle boot.
"""

from __future__ import annotations

import gzip
import os

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._common import KERAS_DATASETS

_ORIGIN_FOLDER = KERAS_DATASETS
_FILES = (
    "train-labels-idx1-ubyte.gz",
    "train-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
)


def _read(path: str, offset: int) -> np.ndarray:
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8, offset=offset)


def load_data():
    """Loads Fashion-MNIST into ``~/.keras/datasets/fashion-mnist/`` (Keras's cache).

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``uint8`` arrays of shapes
        ``(60000, 28, 28)``, ``(60000,)``, ``(10000, 28, 28)``, ``(10000,)``.

    Example:

    ```python
    (x_train, y_train), (x_test, y_test) = mb.datasets.fashion_mnist.load_data()
    ```
    """
    subdir = os.path.join("datasets", "fashion-mnist")
    paths = [get_file(name, origin=_ORIGIN_FOLDER + name, cache_subdir=subdir) for name in _FILES]
    y_train = _read(paths[0], 8)
    x_train = _read(paths[1], 16).reshape(len(y_train), 28, 28)
    y_test = _read(paths[2], 8)
    x_test = _read(paths[3], 16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
