"""Device placement: ``device_scope``, the device new tensors are created on."""

import contextlib
import re

import tensorflow as tf

from mb_backend_tensorflow import _compat

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


def placement(only_for_accelerators=False):
    """This thread's device scope, for mb_data's prefetch thread (TensorFlow keeps the
    ``tf.device`` stack per thread): a callable entering it there; None where this
    TensorFlow hides the scope (`_compat.current_device_name`). With
    `only_for_accelerators`, None when the scope's device is a CPU: there a background
    thread costs more than the copy it would hide."""
    name = _compat.current_device_name()
    if name is None:
        return None
    if only_for_accelerators:
        on_cpu = "CPU" in name.upper() if name else not tf.config.list_logical_devices("GPU")
        if on_cpu:
            return None
    if not name:
        return contextlib.nullcontext
    return lambda: tf.device(name)
