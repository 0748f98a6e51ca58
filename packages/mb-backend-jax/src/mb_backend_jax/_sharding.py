"""Turning layouts into ``jax.sharding`` objects and placing arrays by them."""

import jax
import numpy as np

from mb_backend_jax._convert import convert_to_tensor
from mb_backend_jax._device import _to_jax_device


def to_sharding(layout):
    """The ``jax.sharding.Sharding`` of an mb ``TensorLayout``, a device or a sharding."""
    if isinstance(layout, jax.sharding.Sharding):
        return layout
    if isinstance(layout, str | jax.Device):
        return jax.sharding.SingleDeviceSharding(_to_jax_device(layout))
    if hasattr(layout, "backend_layout"):  # an mb TensorLayout
        return layout.backend_layout
    raise ValueError(
        "distribute_tensor expects a TensorLayout, a device name, a jax.Device or a "
        f"jax.sharding.Sharding. Received {type(layout).__name__}."
    )


def is_placed(value, sharding):
    """Whether the array `value` is already laid out as `sharding`."""
    current = getattr(value, "sharding", None)
    if current is None:
        return False
    return current == sharding or current.is_equivalent_to(sharding, value.ndim)


def place(value, layout):
    """`value` laid out as `layout` (a sharding constraint while tracing)."""
    sharding = to_sharding(layout)
    if isinstance(value, jax.core.Tracer):
        return jax.lax.with_sharding_constraint(value, sharding)
    value = convert_to_tensor(value)
    if is_placed(value, sharding):
        return value
    if sharding.is_fully_addressable:
        return jax.device_put(value, sharding)
    # The devices span processes: every process holds the same value (variables are
    # seeded alike) and places the parts its own devices hold.
    host = np.asarray(value)
    return jax.make_array_from_callback(host.shape, sharding, lambda index: host[index])
