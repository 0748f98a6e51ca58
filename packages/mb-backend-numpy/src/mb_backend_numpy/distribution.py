"""Devices of the NumPy backend: the host CPU only, one process."""

import numpy as np

UNSUPPORTED = {
    "initialize": "the NumPy backend runs in one process on the host CPU",
}


def list_devices(device_type=None):
    """The devices this backend can run on, as ``"cpu:0"``-style strings."""
    if device_type is not None and device_type.lower() != "cpu":
        return []
    return ["cpu:0"]


def get_device_count(device_type=None):
    """How many devices `list_devices(device_type)` lists (1 or 0)."""
    return len(list_devices(device_type))


def num_processes():
    """Always one process."""
    return 1


def process_id():
    """The only process, 0."""
    return 0


def distribute_tensor(tensor, layout):
    """``tensor`` on the one device there is (every layout places it there)."""
    return np.asarray(tensor)
