"""MNIST handwritten digits: 60,000 training and 10,000 test images of 28x28 pixels."""

from __future__ import annotations

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._common import KERAS_DATASETS

_ORIGIN = KERAS_DATASETS + "mnist.npz"
_FILE_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz"):
    """Loads MNIST, downloading it once into ``~/.keras/datasets/`` (Keras's cache).

    Args:
        path: the file's name in the cache folder.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``uint8`` arrays of shapes
        ``(60000, 28, 28)``, ``(60000,)``, ``(10000, 28, 28)``, ``(10000,)``; pixels
        in ``[0, 255]``, labels in ``[0, 9]``.

    Example:

    ```python
    (x_train, y_train), (x_test, y_test) = mb.datasets.mnist.load_data()
    ```
    """
    path = get_file(fname=path, origin=_ORIGIN, file_hash=_FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
