"""What layers take from the active backend, through its contract modules only.

`backend_layer_class()` is the backend's ``layer.Layer`` mixin (on torch a
``torch.nn.Module``); `variable_class()` is its ``core.Variable``. Nothing here
names a backend: the active one is found by `mb_ops.backends`.
"""

from mb_ops import backends


class _NoMixin:
    """The mixin used when the backend's ``layer`` module offers nothing."""


def backend_layer_class():
    """The active backend's Layer mixin, or a plain class when it has none yet."""
    try:
        module = backends.backend_module("layer")
    except ModuleNotFoundError:
        return _NoMixin
    # Backends name the mixin ``Layer`` or ``BackendLayer``.
    return getattr(module, "Layer", None) or getattr(module, "BackendLayer", None) or _NoMixin


def core():
    """The active backend's ``core`` contract module."""
    return backends.backend_module("core")


def variable_class():
    """The active backend's ``core.Variable``."""
    return core().Variable


def is_tensor(x):
    """Whether `x` is a tensor of the active backend."""
    return core().is_tensor(x)
