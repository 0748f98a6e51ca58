"""Helpers shared by the nn ops: data layouts, per-axis arguments and windows."""

import tensorflow as tf

from mb_ops import config

_FORMATS = ("channels_last", "channels_first")


def data_format(value):
    """``value``, or the configured image data format when None; validated."""
    value = config.image_data_format() if value is None else value
    if value not in _FORMATS:
        raise ValueError(
            f"data_format must be 'channels_last' or 'channels_first'. Received: {value!r}."
        )
    return value


def to_channels_last(x):
    rank = x.shape.rank
    return tf.transpose(x, [0, *range(2, rank), 1])


def to_channels_first(x):
    rank = x.shape.rank
    return tf.transpose(x, [0, rank - 1, *range(1, rank - 1)])


def as_tuple(value, n, name):
    """An int or a sequence of ``n`` ints as a tuple of ``n`` ints."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"{name} needs {n} values (one per spatial axis). Received {value}.")
    return value


def check_padding(padding):
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"padding must be 'valid' or 'same'. Received: {padding!r}.")
    return padding.upper()
