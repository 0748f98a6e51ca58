"""The default torch device and ``device_scope``.

The default is ``$MB_TORCH_DEVICE`` (or ``$KERAS_TORCH_DEVICE``), else CUDA when
available, else the CPU. Tensors a user already placed are never moved behind
their back; new tensors (from NumPy, Python values, creation ops) are made on
the current device.
"""

import contextlib
import os
import threading

import torch


def _default_device():
    for var in ("MB_TORCH_DEVICE", "KERAS_TORCH_DEVICE"):
        if os.environ.get(var):
            return parse_device(os.environ[var])
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


def parse_device(device_name):
    """``"gpu:1"`` -> ``"cuda:1"``; accepts ``torch.device`` and torch's own names."""
    if isinstance(device_name, torch.device):
        return str(device_name)
    if not isinstance(device_name, str):
        raise ValueError(
            "device_scope expects a device name such as 'cpu', 'gpu:0' or 'cuda:1'. "
            f"Received: {device_name!r} of type {type(device_name).__name__}."
        )
    name = device_name.lower().replace("gpu", "cuda")
    if name.endswith(":0") and name.startswith("cpu"):
        name = "cpu"
    return name


DEFAULT_DEVICE = _default_device()


class _State(threading.local):
    def __init__(self):
        # None means "no scope active": use DEFAULT_DEVICE.
        self.device = None


_state = _State()


def get_device():
    """The device new tensors are created on (a string such as ``"cpu"``)."""
    device = _state.device
    return DEFAULT_DEVICE if device is None else device


def scoped_device():
    """The device of the innermost active ``device_scope``, or None."""
    return _state.device


@contextlib.contextmanager
def device_scope(device_name):
    """Create new tensors on ``device_name`` (``"cpu"``, ``"gpu:0"``, ``"cuda:1"``, ``"meta"``)."""
    previous = _state.device
    _state.device = parse_device(device_name)
    try:
        yield torch.device(_state.device)
    finally:
        _state.device = previous
