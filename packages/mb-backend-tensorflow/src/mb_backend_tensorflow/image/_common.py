"""Shared checks and layout moves of the image ops (images are 3D or 4D)."""

import tensorflow as tf

from mb_backend_tensorflow.nn._common import data_format as standardize_format


def check_images(images, name):
    if images.shape.rank not in (3, 4):
        raise ValueError(
            f"{name} needs a single image (rank 3) or a batch (rank 4). Received shape "
            f"{images.shape.as_list()}."
        )


def to_last(images, data_format):
    """(images in channels_last, how to undo it)."""
    data_format = standardize_format(data_format)
    if data_format == "channels_last":
        return images, lambda out: out
    if images.shape.rank == 4:
        return tf.transpose(images, (0, 2, 3, 1)), lambda out: tf.transpose(out, (0, 3, 1, 2))
    return tf.transpose(images, (1, 2, 0)), lambda out: tf.transpose(out, (2, 0, 1))


def batched(images):
    """(a 4D batch, how to undo the batching)."""
    if images.shape.rank == 3:
        return images[None], lambda out: out[0]
    return images, lambda out: out
