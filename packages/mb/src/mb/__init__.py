"""mb: a multi-backend deep learning framework with the public API of Keras 3.

Pick the engine with ``MB_BACKEND`` (or ``KERAS_BACKEND``) before importing;
code written for Keras 3 runs after ``import mb as keras``::

    MB_BACKEND=torch python train.py

``import mb`` is cheap: the namespaces (``mb.layers``, ``mb.ops``, …) and the
top-level classes load on first access, so ``mb info`` works even when the
configured backend is broken.
"""

from __future__ import annotations

import importlib
import importlib.metadata as _metadata
from typing import Any

from mb import config as config

__version__ = _metadata.version("mb")

_SUBMODULES = frozenset(
    {
        "activations",
        "backend",
        "constraints",
        "dtype_policies",
        "initializers",
        "layers",
        "ops",
        "random",
        "regularizers",
        "tree",
    }
)

# Top-level names Keras 3 exposes, and where mb keeps each.
_ATTRIBUTES = {
    "Function": "mb_graph",
    "KerasTensor": "mb_graph",
    "Operation": "mb_graph",
    "Input": "mb_layers",
    "InputSpec": "mb_layers",
    "Layer": "mb_layers",
    "Sequential": "mb_layers",
    "StatelessScope": "mb_ops",
    "SymbolicScope": "mb_ops",
    "Variable": "mb_ops",
    "name_scope": "mb_ops",
}


def version() -> str:
    """The version of the mb umbrella package."""
    return __version__


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        module = importlib.import_module(f"mb.{name}")
        globals()[name] = module
        return module
    if name in _ATTRIBUTES:
        value = getattr(importlib.import_module(_ATTRIBUTES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mb' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBMODULES, *_ATTRIBUTES})
