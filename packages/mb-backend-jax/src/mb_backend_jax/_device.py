"""Device placement: ``device_scope``, the device new tensors are created on."""

import contextlib

import jax


def _to_jax_device(device_name):
    if isinstance(device_name, jax.Device):
        return device_name
    if not isinstance(device_name, str):
        raise ValueError(
            "device_scope expects a string like 'cpu:0' / 'gpu:1' or a jax.Device. "
            f"Received: {device_name!r}."
        )
    kind, _, index = device_name.lower().partition(":")
    try:
        devices = jax.devices(kind)
    except RuntimeError as exc:
        raise ValueError(
            f"device_scope received {device_name!r} but JAX sees no {kind!r} device. "
            f"Available: {[f'{d.platform}:{d.id}' for d in jax.devices()]}."
        ) from exc
    position = int(index) if index else 0
    for device in devices:
        if device.id == position:
            return device
    if position < len(devices):
        return devices[position]
    raise ValueError(
        f"device_scope received {device_name!r} but JAX sees only {len(devices)} {kind} device(s)."
    )


def device_scope(device_name):
    """A context in which new arrays are placed on ``device_name`` ("gpu:0")."""
    return jax.default_device(_to_jax_device(device_name))


def placement(only_for_accelerators=False):
    """This thread's device scope, for mb_data's prefetch thread (``jax.default_device``
    is per thread): a callable entering it there. With `only_for_accelerators`, None
    when that device is a CPU: there a background thread costs more than the copy
    it would hide (bench/data_throughput.py --step-matmul)."""
    device = jax.config.jax_default_device
    if only_for_accelerators:
        target = device if device is not None else jax.devices()[0]
        platform = target.platform if isinstance(target, jax.Device) else str(target)
        if platform.lower().startswith("cpu"):
            return None
    if device is None:
        return contextlib.nullcontext
    return lambda: jax.default_device(device)
