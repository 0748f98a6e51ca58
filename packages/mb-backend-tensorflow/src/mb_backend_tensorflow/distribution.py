"""Devices of the TensorFlow backend."""

import tensorflow as tf


def list_devices(device_type=None):
    """The devices TensorFlow sees, as ``"cpu:0"``/``"gpu:0"``-style strings."""
    kinds = [device_type.upper()] if device_type else ["CPU", "GPU"]
    out = []
    for kind in kinds:
        out += [f"{kind.lower()}:{i}" for i, _ in enumerate(tf.config.list_physical_devices(kind))]
    return out
