"""Device placement: ``device_scope``, the device new tensors are created on."""

import contextlib


@contextlib.contextmanager
def device_scope(device_name):
    """Run the block on ``device_name``; only the CPU is available to this backend."""
    kind = str(device_name).split(":")[0].lower()
    if kind not in ("cpu",):
        raise ValueError(
            f"device_scope received {device_name!r}, but the openvino backend runs on the "
            "CPU only (cpu:0)."
        )
    yield
