"""CIFAR-10: 50,000 training and 10,000 test color images of 32x32 pixels, 10 classes.

Labels: 0 airplane, 1 automobile, 2 bird, 3 cat, 4 deer, 5 dog, 6 frog, 7 horse,
8 ship, 9 truck.
"""

from __future__ import annotations

import os

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._cifar import load_batch, to_image_data_format

_ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
_FILE_HASH = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"


def load_data():
    """Loads CIFAR-10, downloading and extracting it once into ``~/.keras/datasets/``.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``uint8`` images of shape
        ``(50000, 32, 32, 3)`` and ``(10000, 32, 32, 3)`` (``(n, 3, 32, 32)`` when
        the image data format is ``channels_first``), and ``uint8`` labels of shape
        ``(50000, 1)`` and ``(10000, 1)``.

    Example:

    ```python
    (x_train, y_train), (x_test, y_test) = mb.datasets.cifar10.load_data()
    ```
    """
    folder = get_file(
        fname="cifar-10-batches-py-target", origin=_ORIGIN, extract=True, file_hash=_FILE_HASH
    )
    folder = os.path.join(folder, "cifar-10-batches-py")
    images, labels = [], []
    for i in range(1, 6):
        x, y = load_batch(os.path.join(folder, f"data_batch_{i}"))
        images.append(x.astype("uint8"))
        labels.append(np.asarray(y, dtype="uint8"))
    x_train, y_train = np.concatenate(images), np.concatenate(labels)
    x_test, y_test = load_batch(os.path.join(folder, "test_batch"))
    x_test = np.asarray(x_test, dtype="uint8")
    y_train = y_train.reshape(-1, 1)
    y_test = np.asarray(y_test, dtype="uint8").reshape(-1, 1)
    x_train, x_test = to_image_data_format(x_train, x_test)
    return (x_train, y_train), (x_test, y_test)
