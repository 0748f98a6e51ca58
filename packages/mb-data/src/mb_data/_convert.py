"""Handing batches to the active backend: each leaf goes to ``convert_to_tensor`` unchanged.

The backend's ``convert_to_tensor`` returns its own engine's tensors as they
are and takes other engines' tensors through DLPack, so passing the native
batch straight through is what avoids a round trip through NumPy.

`to_host_or_backend` is the variant for a consumer whose compiled step places NumPy
arguments on the device itself (jax's ``jit`` does it in its C++ dispatch, a third of
the cost of a conversion in Python): NumPy arrays of numbers stay as they are, and so
do other engines' tensors in host memory, as NumPy views (DLPack), instead of going
through DLPack into the backend (~40 us a tensor on jax).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mb_data import _engines, _structure, _text
from mb_ops import backends


def backend_converter():
    """The active backend's ``convert_to_tensor``."""
    return backends.backend_module("core").convert_to_tensor


def to_backend(batch: Any) -> Any:
    """``batch`` with every leaf a tensor of the active backend (text the backend
    cannot hold, or Python objects, are refused naming the input: `_text`)."""
    convert = backend_converter()
    if _flat_numbers(batch):  # the usual (x, y[, sample_weight]) of arrays: one pass
        return tuple([convert(x) for x in batch])
    _text.check_batch(batch)
    return _structure.map_structure(convert, batch)


def _flat_numbers(batch: Any) -> bool:
    return type(batch) is tuple and all(is_host_numbers(x) for x in batch)


def is_host_numbers(x: Any) -> bool:
    """Whether `x` is a NumPy array of numbers or booleans (what a compiled step takes)."""
    return type(x) is np.ndarray and x.dtype.kind in "biufc"


def to_host_or_backend(batch: Any, copy: bool) -> Any:
    """``batch`` with its NumPy arrays of numbers as they are (a private copy with
    `copy`: the source may write into the same buffer for its next batch while a step
    still reads this one) and every other leaf a tensor of the active backend."""
    if _flat_numbers(batch):
        return tuple([x.copy() for x in batch]) if copy else batch
    _text.check_batch(batch)
    core = backends.backend_module("core")
    convert, is_own = core.convert_to_tensor, core.is_tensor

    def leaf(x: Any) -> Any:
        if is_host_numbers(x):
            return x.copy() if copy else x
        if not is_own(x):
            view = _host_view(x)
            if view is not None:
                return view.copy() if copy else view
        return convert(x)

    return _structure.map_structure(leaf, batch)


_DLPACK_CPU = 1  # DLPack's kDLCPU


def _host_view(x: Any) -> np.ndarray | None:
    """A NumPy view of another engine's tensor of numbers held in host memory (a torch
    ``DataLoader``'s or a ``tf.data`` pipeline's batch on the CPU), through DLPack; None
    for anything else (a tensor on an accelerator stays one: no copy to the host)."""
    device = getattr(x, "__dlpack_device__", None)
    if device is None:
        return None
    try:
        if int(device()[0]) != _DLPACK_CPU:
            return None
        view = np.from_dlpack(x)
    except Exception:  # a dtype NumPy lacks (bfloat16), a tensor that requires grad...
        return None
    return view if view.dtype.kind in "biufc" else None


def to_numpy(batch: Any) -> Any:
    """``batch`` with every leaf a NumPy array."""
    return _structure.map_structure(_engines.to_numpy, batch)
