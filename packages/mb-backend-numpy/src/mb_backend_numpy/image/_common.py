"""Checks and layout helpers shared by the image functions."""

import numpy as np

from mb_backend_numpy.nn._common import data_format as standardize_data_format


def check_rank(images):
    if images.ndim not in (3, 4):
        raise ValueError(
            "Expected images of rank 3 (one image) or 4 (a batch). "
            f"Received: images.shape={images.shape}."
        )


def as_batch_channels_last(images, data_format):
    """``images`` as (N, H, W, C), and a function that restores the caller's layout."""
    check_rank(images)
    fmt = standardize_data_format(data_format)
    single = images.ndim == 3
    x = images[None] if single else images
    if fmt == "channels_first":
        x = np.moveaxis(x, 1, -1)

    def restore(out):
        if fmt == "channels_first":
            out = np.moveaxis(out, -1, 1)
        return out[0] if single else out

    return x, restore


def channels_axis(data_format):
    return -1 if standardize_data_format(data_format) == "channels_last" else -3
