"""Devices of the OpenVINO backend: the CPU (the device every op runs on)."""

from mb_backend_openvino._engine import CORE, DEVICE


def list_devices(device_type=None):
    """The devices this backend runs on, as ``"cpu:0"``-style strings.

    OpenVINO may report more devices (an Intel GPU or NPU), but this backend
    compiles every op for the CPU, so only the CPU is listed.
    """
    devices = [name for name in CORE.available_devices if name.split(".")[0] == DEVICE]
    out = [f"cpu:{i}" for i, _ in enumerate(devices or [DEVICE])]
    if device_type is None:
        return out
    return [d for d in out if d.split(":")[0] == device_type.lower()]


def get_device_count(device_type=None):
    return len(list_devices(device_type))
