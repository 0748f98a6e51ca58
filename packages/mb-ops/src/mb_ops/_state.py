"""Per-thread global state: active scopes, deferred variables, name counters."""

from __future__ import annotations

import gc
import threading
from typing import Any

from mb_graph import naming


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.stateless_scope: Any = None
        self.symbolic_scope: Any = None
        self.autocast_scope: Any = None
        self.name_scope_stack: list[Any] = []  # the open name_scope objects
        self.uninitialized_variables: list[Any] = []


STATE = _ThreadState()

_reset_hooks: list[Any] = []


def get_uid(prefix: str = "") -> int:
    """Return 1, 2, 3, … for successive calls with the same prefix (``keras.backend.get_uid``).

    The counters are mb_graph's, shared with operation and layer names.

    Args:
        prefix: the counter's name.

    Returns:
        An int, counted from 1 per prefix (again after ``clear_session()``).

    Example:

    >>> import mb_ops
    >>> mb_ops.clear_session()
    >>> mb_ops.get_uid("block"), mb_ops.get_uid("block"), mb_ops.get_uid("other")
    (1, 2, 1)
    """
    return naming.get_uid(prefix)


def auto_name(prefix: str) -> str:
    """``prefix``, then ``prefix_1``, ``prefix_2``, … (snake case)."""
    return naming.auto_name(prefix)


def reset_uids() -> None:
    naming.reset_uids()


def register_reset_hook(fn: Any) -> None:
    """Call ``fn()`` on every ``clear_session()`` (used for global seed state)."""
    _reset_hooks.append(fn)


def clear_session(free_memory: bool = True) -> None:
    """Forget global state: name counters, pending variables, the global seed.

    Like ``keras.utils.clear_session()``: objects made before keep working, but
    new ones are named from scratch (``dense``, ``dense_1``, …). With `free_memory`
    (Keras's default) Python's garbage collector runs too, so models dropped in
    reference cycles release their variables now; the engines' own device caches
    are theirs to manage.

    Args:
        free_memory: whether to run Python's garbage collector.

    Example:

    >>> import mb_ops
    >>> mb_ops.get_uid("block"), mb_ops.get_uid("block")
    (1, 2)
    >>> mb_ops.clear_session()
    >>> mb_ops.get_uid("block")
    1
    """
    reset_uids()
    STATE.uninitialized_variables = []
    STATE.name_scope_stack = []
    for fn in _reset_hooks:
        fn()
    if free_memory:
        gc.collect()
