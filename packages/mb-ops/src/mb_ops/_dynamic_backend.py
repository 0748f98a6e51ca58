"""Keras's ``DynamicBackend``: the ops of the active backend, or of another installed one.

Preprocessing layers compute with ``layer.backend`` and seed generators keep
theirs (``SeedGenerator.backend``), as in Keras. By default it is the active
backend's public ops (mb's dispatching ones); ``set_backend(name)`` points it at
another installed backend's own contract functions, whose tensors are that
engine's.
"""

import importlib

from mb_ops import _backends
from mb_ops._backends import CONTRACT_MODULES, OFFICIAL_BACKENDS, available_backends

# The public op namespaces a layer reaches through `layer.backend.<name>`.
_OP_NAMESPACES = ("numpy", "nn", "image", "random", "linalg", "math", "core")


class DynamicBackend:
    """The ops a preprocessing layer computes with: Keras's ``DynamicBackend``.

    ``layer.backend.numpy.add``, ``layer.backend.image.rgb_to_hsv``,
    ``layer.backend.convert_to_tensor``: the active backend's ops (mb's dispatching
    ones). ``set_backend("tensorflow")`` points it at another installed backend's
    own functions (its tensors, not the active backend's); ``reset()`` points it
    back.

    >>> from mb_ops import config, core
    >>> backend = DynamicBackend()
    >>> backend.name == _backends.backend()
    True
    >>> core.convert_to_numpy(backend.numpy.add(1.0, 2.0)).item()
    3.0
    """

    def __init__(self, backend=None):
        self._name = None
        if backend is not None:
            self.set_backend(backend)

    @property
    def name(self):
        """The backend the ops come from."""
        return self._name or _backends.backend()

    def set_backend(self, backend):
        """Takes ops from `backend` (one of the installed backends) from now on."""
        if backend not in OFFICIAL_BACKENDS and backend not in available_backends():
            raise ValueError(
                f"Available backends are {tuple(OFFICIAL_BACKENDS)}. Received: backend={backend!r}"
            )
        self._name = None if backend == _backends.backend() else backend

    def reset(self):
        """Takes ops from the active backend again."""
        self._name = None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._name is None:
            return _active_op(name)
        return _other_backend_op(self._name, name)

    def __repr__(self):
        return f"<DynamicBackend {self.name!r}>"


def _active_op(name):
    if name in _OP_NAMESPACES:
        return importlib.import_module(f"mb_ops.{name}")
    for namespace in ("core", "numpy"):
        found = getattr(importlib.import_module(f"mb_ops.{namespace}"), name, None)
        if found is not None:
            return found
    ops = importlib.import_module("mb_ops.ops")
    if hasattr(ops, name):
        return getattr(ops, name)
    raise AttributeError(f"The {_backends.backend()!r} backend's ops have no {name!r}.")


def _other_backend_op(backend, name):
    descriptor = available_backends().get(backend)
    if descriptor is None:
        raise ValueError(
            f"layer.backend is set to {backend!r}, which is not installed here. Install "
            f"{OFFICIAL_BACKENDS.get(backend, backend)} or call layer.backend.reset()."
        )
    if name in CONTRACT_MODULES:
        return importlib.import_module(f"{descriptor.module}.{name}")
    for namespace in ("core", "numpy"):
        module = importlib.import_module(f"{descriptor.module}.{namespace}")
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"The {backend!r} backend has no {name!r}.")
