"""Devices and basic placement on the JAX backend.

Device names are ``"<platform>:<id>"`` strings, e.g. ``"cpu:0"``, ``"gpu:1"``.
"""

import jax

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.core._transforms import _to_jax_device


def list_devices(device_type=None):
    """The devices JAX sees, as ``"cpu:0"``/``"gpu:0"``-style strings.

    Args:
        device_type: ``"cpu"``, ``"gpu"`` or ``"tpu"`` to filter, or None
            for the default backend's devices.
    """
    try:
        devices = jax.devices(device_type.lower()) if device_type else jax.devices()
    except RuntimeError:
        return []
    return [f"{d.platform}:{d.id}" for d in devices]


def get_device_count(device_type=None):
    """How many devices of ``device_type`` (default: the default backend's) JAX sees."""
    return len(list_devices(device_type))


def num_processes():
    """The number of JAX processes (hosts) in this computation."""
    return jax.process_count()


def process_id():
    """The index of this process among ``num_processes()``."""
    return jax.process_index()


def distribute_tensor(tensor, layout):
    """Place ``tensor`` according to ``layout``.

    ``layout`` may be a device name (``"gpu:0"``), a ``jax.Device``, or a
    ``jax.sharding.Sharding``. Under ``jax.jit`` a sharding becomes a sharding
    constraint.
    """
    tensor = convert_to_tensor(tensor)
    if isinstance(layout, str | jax.Device):
        layout = jax.sharding.SingleDeviceSharding(_to_jax_device(layout))
    if not isinstance(layout, jax.sharding.Sharding):
        raise ValueError(
            "distribute_tensor expects a device name, a jax.Device or a jax.sharding.Sharding. "
            f"Received {type(layout).__name__}."
        )
    if isinstance(tensor, jax.core.Tracer):
        return jax.lax.with_sharding_constraint(tensor, layout)
    return jax.device_put(tensor, layout)
