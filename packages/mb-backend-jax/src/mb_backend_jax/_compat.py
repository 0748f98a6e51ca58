"""The private jax APIs mb uses, in one place, each with the public path it replaces.

Nothing outside this module reaches into ``jax._src`` (the tooling leg checks it).
Each fast path here is resolved once and checked on a probe; where a jax release
moved or changed it, the resolver returns None and callers take the public path.
``tests/test_compat.py`` asserts that every fast path still resolves on the jax this
workspace pins, so an upgrade that loses one fails CI instead of slowing mb down
silently.
"""

import jax
import numpy as np


def resolve_device_put():
    """A host-to-device transfer ``put(x, copy=True) -> jax.Array``, or None.

    ``jnp.asarray`` dispatches a conversion primitive (~15-25 us a call on a CPU); the
    C++ transfer jax itself uses under ``device_put`` (``pxla.batched_device_put``,
    not public API) costs a third of that, which is most of a small training step's
    overhead. ``x`` must be a NumPy array of a dtype jax stores as is; the result
    lives on the default device, uncommitted, like ``jnp.asarray``'s.
    """
    try:
        from jax._src.interpreters import pxla
        from jax.sharding import SingleDeviceSharding

        device = jax.devices()[0]
        sharding = SingleDeviceSharding(device)
        probe = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2]
        avals = {}
        devices = [device]
        # The C++ function under pxla.batched_device_put (which adds test hooks).
        transfer = getattr(getattr(pxla, "xc", None), "batched_device_put", None)
        if transfer is None:
            transfer = pxla.batched_device_put

        def put(x, copy=True):
            # The CPU client may alias the host buffer: hand it a private copy, so
            # writing to the caller's array later never changes the tensor.
            if copy:
                x = x.copy()
            key = (x.shape, x.dtype)
            aval = avals.get(key)
            if aval is None:
                if len(avals) > 512:  # many shapes (e.g. ragged batches): start over
                    avals.clear()
                aval = avals[key] = jax.core.ShapedArray(x.shape, x.dtype)
            return transfer(aval, sharding, [x], devices, False)

        out = put(probe)
        if not (isinstance(out, jax.Array) and np.array_equal(np.asarray(out), probe)):
            return None
        return put
    except Exception:  # any drift in the private API: the caller uses the public path
        return None
