"""Devices of the TensorFlow backend (mb does not run under ``tf.distribute``)."""

import tensorflow as tf

UNSUPPORTED = {}


def list_devices(device_type=None):
    """The devices TensorFlow sees, as ``"cpu:0"``/``"gpu:0"``-style strings."""
    kinds = [device_type.upper()] if device_type else ["CPU", "GPU"]
    out = []
    for kind in kinds:
        out += [f"{kind.lower()}:{i}" for i, _ in enumerate(tf.config.list_physical_devices(kind))]
    return out


def get_device_count(device_type=None):
    """How many devices of ``device_type`` (all kinds when None) TensorFlow sees."""
    return len(list_devices(device_type))


def num_processes():
    """One process: multi-worker training is not wired up on this backend."""
    return 1


def process_id():
    return 0
