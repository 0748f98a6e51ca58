"""Device placement: ``device_scope``, the device new tensors are created on."""

import contextlib
import re

import tensorflow as tf

_DEVICE = re.compile(r"^/?(?:device:)?(cpu|gpu|tpu)(?::(\d+))?$", re.IGNORECASE)


def device_scope(device_name):
    """Place ops on ``device_name`` (``"cpu"``, ``"gpu:0"``, ``"/device:GPU:1"``)."""
    if device_name is None:
        return contextlib.nullcontext()
    if not isinstance(device_name, str):
        raise ValueError(
            f"device_scope expects a device name such as 'cpu:0' or 'gpu:0'. "
            f"Received: {device_name!r}."
        )
    match = _DEVICE.match(device_name.strip())
    if match is None:
        return tf.device(device_name)
    kind, index = match.group(1).upper(), match.group(2) or "0"
    return tf.device(f"/{kind}:{index}")
