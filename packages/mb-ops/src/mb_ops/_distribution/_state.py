"""The active distribution and the backend's ``distribution`` contract module.

The distribution is process-wide (one per training program), unlike Keras's
per-thread global: a data loader thread or a callback sees the same one.
"""

from __future__ import annotations

from typing import Any

from mb_ops import _backends, _contract


class _Active:
    distribution: Any = None


def current() -> Any:
    """The distribution set by `set_distribution` or a ``scope()``, or None."""
    return _Active.distribution


def set_current(value: Any) -> None:
    _Active.distribution = value


def backend_module() -> Any:
    """The active backend's ``distribution`` module."""
    return _backends.backend_module("distribution")


def backend_function(name: str) -> Any:
    """``name`` from the backend's ``distribution`` module, or a clear error."""
    function = _contract.lookup("distribution", name)
    if function is None:
        backend = _backends.backend_descriptor().name
        reason = _contract.unsupported_reason("distribution", name)
        raise NotImplementedError(
            f"mb.distribution needs `{name}` from the {backend} backend, which cannot "
            f"provide it: {reason}. Use the jax, torch or tensorflow backend "
            "(MB_BACKEND=jax) to distribute."
        )
    return function


def optional_function(name: str) -> Any:
    """``name`` from the backend's ``distribution`` module, or None when it has none."""
    return _contract.lookup("distribution", name)


def backend_list_devices(device_type: str | None) -> list[str]:
    return list(backend_module().list_devices(device_type))


def num_processes() -> int:
    """How many processes take part (1 unless the backend runs several)."""
    function = optional_function("num_processes")
    return int(function()) if function is not None else 1


def process_id() -> int:
    """This process's index among `num_processes()` (0 when alone)."""
    function = optional_function("process_id")
    return int(function()) if function is not None else 0


def is_chief() -> bool:
    """Whether this process is the one that writes files and prints (process 0)."""
    return process_id() == 0


def variable_layout(variable: Any) -> Any:
    """The layout a new variable takes: its own, else the active distribution's."""
    layout = getattr(variable, "_layout", None)
    if layout is not None:
        return layout
    distribution = _Active.distribution
    if distribution is None:
        return None
    return distribution.get_variable_layout(variable)


def distribute_variable_value(value: Any, layout: Any) -> Any:
    """`value` placed as `layout` says, by the backend (unchanged when it cannot)."""
    if layout is None:
        return value
    function = optional_function("distribute_variable")
    return value if function is None else function(value, layout)
