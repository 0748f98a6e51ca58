"""The op namespace layers are written over (``keras.ops`` in Keras).

Layer math calls ``ops.<name>``: the flat op API of mb_ops (``mb_ops.ops``),
whose functions run eagerly on the active backend and infer shapes and dtypes
statically on KerasTensors. Names resolve once and are cached.
"""

import importlib

import mb_ops
from mb_ops import backends

_OP_MODULES = ("ops", "numpy", "nn", "math", "linalg", "core", "image")
_BACKEND_MODULES = ("numpy", "nn", "math", "linalg", "core", "image")


def _candidate_modules(names, package):
    for name in names:
        try:
            yield importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue


class _Namespace:
    """Resolves ``ops.<name>`` against mb_ops's op modules (then the backend's)."""

    def __init__(self, op_modules, backend_modules):
        self._op_modules = op_modules
        self._backend_modules = backend_modules

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        for module in _candidate_modules(self._op_modules, "mb_ops"):
            fn = getattr(module, name, None)
            if callable(fn):
                setattr(self, name, fn)
                return fn
        # Until mb_ops publishes an op, its backend function still runs eagerly.
        package = backends.load_backend().__name__
        for module in _candidate_modules(self._backend_modules, package):
            fn = getattr(module, name, None)
            if callable(fn):
                return fn
        raise AttributeError(
            f"The op {name!r} is not available: neither mb_ops nor the "
            f"{mb_ops.config.backend()!r} backend provides it."
        )


ops = _Namespace(_OP_MODULES, _BACKEND_MODULES)
random = _Namespace(("random",), ("random",))
