"""Boston housing prices: 506 samples of 13 attributes, targets in k$.

The data set has an ethical problem (its "B" attribute); Keras discourages its
use except to illustrate such issues.
"""

from __future__ import annotations

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._common import KERAS_DATASETS, check_test_split, shuffled_split

_ORIGIN = KERAS_DATASETS + "boston_housing.npz"
_FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """Loads Boston housing, downloading it once into ``~/.keras/datasets/``.

    Args:
        path: the file's name in the cache folder.
        test_split: the fraction kept for testing (the last samples after the shuffle).
        seed: the seed of the shuffle.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``x`` of shape ``(n, 13)``, ``y`` of
        shape ``(n,)``.

    Example:

    ```python
    (x_train, y_train), (x_test, y_test) = mb.datasets.boston_housing.load_data()
    ```
    """
    check_test_split(test_split)
    path = get_file(path, origin=_ORIGIN, file_hash=_FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    return shuffled_split(x, y, test_split, seed)
