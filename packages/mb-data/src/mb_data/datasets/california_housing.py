"""California housing prices: 20,640 districts of 8 attributes, median house values."""

from __future__ import annotations

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._common import KERAS_DATASETS, check_test_split, shuffled_split

_ORIGIN = KERAS_DATASETS + "california_housing.npz"
_FILE_HASH = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """Loads California housing, downloading it once into ``~/.keras/datasets/``.

    Args:
        version: ``"large"`` (all 20,640 samples) or ``"small"`` (the first 600).
        path: the file's name in the cache folder.
        test_split: the fraction kept for testing (the last samples after the shuffle).
        seed: the seed of the shuffle.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``x`` of shape ``(n, 8)``, ``y`` of
        shape ``(n,)`` (median house values in $).

    Example:

    ```python
    (x_train, y_train), _ = mb.datasets.california_housing.load_data(version="small")
    ```
    """
    check_test_split(test_split)
    if version not in ("large", "small"):
        raise ValueError(f'version must be "large" or "small". Received: version={version!r}.')
    path = get_file(path, origin=_ORIGIN, file_hash=_FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    return shuffled_split(x, y, test_split, seed)
