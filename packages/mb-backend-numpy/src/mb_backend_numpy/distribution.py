"""Devices of the NumPy backend: the host CPU only."""


def list_devices(device_type=None):
    """The devices this backend can run on, as ``"cpu:0"``-style strings."""
    if device_type is not None and device_type.lower() != "cpu":
        return []
    return ["cpu:0"]
