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

# The distribution is "mb-framework" (the name "mb" on PyPI belongs to another project).
__version__ = _metadata.version("mb-framework")

_SUBMODULES = frozenset(
    {
        "activations",
        "applications",
        "backend",
        "callbacks",
        "constraints",
        "datasets",
        "distillation",
        "distribution",
        "dtype_policies",
        "export",
        "initializers",
        "layers",
        "legacy",
        "losses",
        "metrics",
        "mixed_precision",
        "models",
        "ops",
        "optimizers",
        "preprocessing",
        "quantizers",
        "random",
        "regularizers",
        "saving",
        "tree",
        "utils",
        "visualization",
        "wrappers",
    }
)

# Top-level names Keras 3 exposes, and where mb keeps each.
_ATTRIBUTES = {
    "Function": "mb_graph",
    "KerasTensor": "mb_graph",
    "Operation": "mb_graph",
    "DTypePolicy": "mb_layers.dtype_policies",
    "FloatDTypePolicy": "mb_layers.dtype_policies",
    "Initializer": "mb_layers.initializers",
    "Input": "mb_layers",
    "InputSpec": "mb_layers",
    "Layer": "mb_layers",
    "Loss": "mb_train.losses",
    "Metric": "mb_train.metrics",
    "Model": "mb_train.models",
    "Optimizer": "mb_train.optimizers",
    "Quantizer": "mb_layers.quantizers",
    "Regularizer": "mb_layers.regularizers",
    "RematScope": "mb_graph",
    "Sequential": "mb_train.models",
    "StatelessScope": "mb_ops",
    "SymbolicScope": "mb_ops",
    "Variable": "mb_ops",
    "device": "mb_ops",
    "name_scope": "mb_ops",
    "remat": "mb_ops",
}


def version() -> str:
    """The version of the mb umbrella package."""
    return __version__


# Names that hand out models: Model.save / load_weights / export reach mb_saving and
# mb_export through hooks they fill when imported. The umbrella registers loaders in
# those hooks, so the first save, load or export imports them (with the applications'
# layers, so saved models using them load); training and predicting never do.
_NEEDS_SAVING = frozenset(
    {
        "Model",
        "Sequential",
        "applications",
        "callbacks",
        "distillation",
        "models",
        "saving",
        "utils",
    }
)


# The model classes load mb_saving / mb_export only when a model saves, loads or exports;
# the other names (mb.models.load_model, mb.saving, mb.utils, ...) import them as before.
_LAZY_SAVING = frozenset({"Model", "Sequential"})


def _import_saving() -> None:
    importlib.import_module("mb_saving")
    # Registers the applications' own layers, so saved models using them load.
    importlib.import_module("mb_applications")


def _import_export() -> None:
    importlib.import_module("mb_export")


def _register_loaders() -> None:
    if globals().get("_loaders_registered"):
        return
    from mb_layers import _saving_hook as layer_saving_hook
    from mb_train import _export_hook, _saving_hook

    _saving_hook.set_saving_loader(_import_saving)
    _export_hook.set_export_loader(_import_export)
    layer_saving_hook.set_save_loader(_import_saving)
    globals()["_loaders_registered"] = True


def __getattr__(name: str) -> Any:
    if name == "Variable":
        # Variable("zeros", shape=...) finds string initializers in mb_layers' registry,
        # which registers itself with mb_ops on import.
        importlib.import_module("mb_layers.initializers")
    if name in _NEEDS_SAVING:
        _register_loaders()
        if name not in _LAZY_SAVING:
            _import_saving()
            _import_export()
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
