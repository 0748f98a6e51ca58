"""Devices of the OpenVINO backend."""

import openvino as ov


def list_devices(device_type=None):
    """The devices the OpenVINO runtime reports, as ``"cpu:0"``-style strings."""
    names = ov.Core().available_devices
    out = []
    for name in names:
        kind, _, index = name.partition(".")
        out.append(f"{kind.lower()}:{index or 0}")
    if device_type is None:
        return out
    return [d for d in out if d.split(":")[0] == device_type.lower()]
