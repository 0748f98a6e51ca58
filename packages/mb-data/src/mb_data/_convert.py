"""Handing batches to the active backend: each leaf goes to ``convert_to_tensor`` unchanged.

The backend's ``convert_to_tensor`` returns its own engine's tensors as they
are and takes other engines' tensors through DLPack, so passing the native
batch straight through is what avoids a round trip through NumPy.
"""

from __future__ import annotations

from typing import Any

from mb_data import _engines, _structure, _text
from mb_ops import backends


def backend_converter():
    """The active backend's ``convert_to_tensor``."""
    return backends.backend_module("core").convert_to_tensor


def to_backend(batch: Any) -> Any:
    """``batch`` with every leaf a tensor of the active backend (text the backend
    cannot hold, or Python objects, are refused naming the input: `_text`)."""
    _text.check_batch(batch)
    convert = backend_converter()
    return _structure.map_structure(convert, batch)


def to_numpy(batch: Any) -> Any:
    """``batch`` with every leaf a NumPy array."""
    return _structure.map_structure(_engines.to_numpy, batch)
