"""Reading CIFAR's pickled batches (shared by cifar10 and cifar100)."""

from __future__ import annotations

import numpy as np

from mb_data.datasets._safe_load import load_pickle
from mb_ops import config


def load_batch(fpath: str, label_key: str = "labels") -> tuple[np.ndarray, list]:
    """``(images (n, 3, 32, 32) uint8, labels)`` of one CIFAR batch file."""
    batch = {k.decode("utf8"): v for k, v in load_pickle(fpath).items()}
    data = batch["data"]
    return data.reshape(data.shape[0], 3, 32, 32), batch[label_key]


def to_image_data_format(*images: np.ndarray) -> tuple[np.ndarray, ...]:
    """Channels last (``(n, 32, 32, 3)``) unless mb's image_data_format is channels_first."""
    if config.image_data_format() == "channels_last":
        return tuple(x.transpose(0, 2, 3, 1) for x in images)
    return images
