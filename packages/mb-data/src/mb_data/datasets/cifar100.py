"""CIFAR-100: 50,000 training and 10,000 test color images, 100 classes in 20 groups."""

from __future__ import annotations

import os

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._cifar import load_batch, to_image_data_format

_ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
_FILE_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode="fine"):
    """Loads CIFAR-100, downloading and extracting it once into ``~/.keras/datasets/``.

    Args:
        label_mode: ``"fine"`` (100 classes) or ``"coarse"`` (20 superclasses).

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``uint8`` images of shape
        ``(50000, 32, 32, 3)`` and ``(10000, 32, 32, 3)`` (channels first when the
        image data format says so) and labels of shape ``(50000, 1)``, ``(10000, 1)``
        (int64, as Keras returns them).

    Example:

    ```python
    (x_train, y_train), _ = mb.datasets.cifar100.load_data(label_mode="coarse")
    ```
    """
    if label_mode not in ("fine", "coarse"):
        raise ValueError(
            f'label_mode must be "fine" or "coarse". Received: label_mode={label_mode!r}.'
        )
    folder = get_file(
        fname="cifar-100-python-target", origin=_ORIGIN, extract=True, file_hash=_FILE_HASH
    )
    folder = os.path.join(folder, "cifar-100-python")
    key = f"{label_mode}_labels"
    x_train, y_train = load_batch(os.path.join(folder, "train"), label_key=key)
    x_test, y_test = load_batch(os.path.join(folder, "test"), label_key=key)
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    x_train, x_test = to_image_data_format(x_train, x_test)
    return (x_train, y_train), (x_test, y_test)
