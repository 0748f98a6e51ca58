"""Devices of the JAX backend."""

import jax


def list_devices(device_type=None):
    """The devices JAX sees, as ``"cpu:0"``/``"gpu:0"``-style strings."""
    try:
        devices = jax.devices(device_type.lower()) if device_type else jax.devices()
    except RuntimeError:
        return []
    return [f"{d.platform}:{d.id}" for d in devices]
