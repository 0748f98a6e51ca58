"""The stack of custom-object scopes: names a ``from_config`` finds without being told.

Keras's ``from_config(cls, config)`` takes no ``custom_objects``: a container
(``Function``, ``Pipeline``, a metric wrapping a function) finds the user's classes
and functions in the active scope instead. mb keeps that stack here, at the bottom
of the package graph, so every package resolves names the same way;
``mb.saving.custom_object_scope`` pushes onto it.
"""

import contextlib
import threading


class _Stack(threading.local):
    def __init__(self):
        self.scopes = []


_STACK = _Stack()


@contextlib.contextmanager
def custom_objects_in_scope(custom_objects):
    """Within the block, the names of `custom_objects` (a dict or None) are in scope.

    The dict itself is in scope, not a copy: what the block adds to it is found too.
    """
    scope = {} if custom_objects is None else custom_objects
    _STACK.scopes.append(scope)
    try:
        yield scope
    finally:
        _STACK.scopes.pop()


def scoped_objects():
    """Every object of the active scopes, merged (innermost wins)."""
    merged = {}
    for scope in _STACK.scopes:
        merged.update(scope)
    return merged


def find_scoped_object(name):
    """The object the innermost scope holds under `name`, else None."""
    for scope in reversed(_STACK.scopes):
        if name in scope:
            return scope[name]
    return None
