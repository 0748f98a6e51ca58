"""``device``: place the tensors and ops created inside on one device."""

from __future__ import annotations

from typing import Any

from mb_ops import _backends


def device(device_name: Any) -> Any:
    """Context manager: new tensors are allocated, and ops run, on ``device_name``.

    Works on every backend (Keras 3's ``keras.device``); the backend reads the
    name, so NumPy and OpenVINO, which run on the host, accept and ignore it.

    Args:
        device_name: ``"device_type:index"``, e.g. ``"cpu:0"``, ``"gpu:0"``
            (torch reads ``"gpu"`` as ``"cuda"``), or the engine's own device
            object.

    Example:
        >>> import mb_ops
        >>> with mb_ops.device("cpu:0"):
        ...     x = mb_ops.numpy.ones((2, 2))
        >>> tuple(x.shape)
        (2, 2)
    """
    return _backends.backend_module("core").device_scope(device_name)
