"""Devices of the PyTorch backend."""

import torch


def list_devices(device_type=None):
    """The devices torch can use, as ``"cpu:0"``/``"cuda:0"``-style strings."""
    devices = ["cpu:0"]
    if torch.cuda.is_available():
        devices += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    if device_type is None:
        return devices
    wanted = {"gpu": "cuda"}.get(device_type.lower(), device_type.lower())
    return [d for d in devices if d.split(":")[0] == wanted]
