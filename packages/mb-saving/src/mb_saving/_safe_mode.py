"""Safe mode: whether loading may run code that a file carries.

On by default. It is turned off per call (``load_model(..., safe_mode=False)``),
for a block (``with SafeModeScope(False):``) or for the process
(`enable_unsafe_deserialization`). A call's explicit argument wins over a
scope, and a scope over the process default.
"""

import threading


class _State(threading.local):
    def __init__(self):
        self.stack = []


_STATE = _State()


class _Default:
    safe = True


def enable_unsafe_deserialization():
    """Turns safe mode off for the whole process (``keras.config.enable_unsafe_deserialization``).

    Only do this when every file you load comes from a source you trust: files
    may then carry Python bytecode (lambdas) that runs when they load.
    """
    _Default.safe = False


def _imposed():
    """The innermost scope's setting, else False after `enable_unsafe_deserialization`."""
    if _STATE.stack:
        return _STATE.stack[-1]
    return None if _Default.safe else False


def in_safe_mode():
    """Whether safe mode is on for the current thread (innermost scope, else the default)."""
    imposed = _imposed()
    return True if imposed is None else imposed


def resolve_safe_mode(safe_mode):
    """The effective setting for a call given its `safe_mode` argument.

    An active `SafeModeScope` wins over the argument, as in Keras: inside a
    load, a custom ``from_config`` that deserializes its parts inherits the
    load's setting whatever it passes.
    """
    if safe_mode is not None and not isinstance(safe_mode, bool):
        raise TypeError(f"`safe_mode` must be True, False or None. Received: {safe_mode!r}.")
    imposed = _imposed()
    if imposed is not None:
        return imposed
    return True if safe_mode is None else safe_mode


class SafeModeScope:
    """Sets safe mode inside a ``with`` block.

    Args:
        safe_mode: True (refuse code from files) or False (allow it).

    Example:

    >>> with SafeModeScope(False):
    ...     in_safe_mode()
    False
    >>> in_safe_mode()
    True
    """

    def __init__(self, safe_mode=True):
        if not isinstance(safe_mode, bool):
            raise TypeError(f"`safe_mode` must be True or False. Received: {safe_mode!r}.")
        self.safe_mode = safe_mode

    def __enter__(self):
        _STATE.stack.append(self.safe_mode)
        return self

    def __exit__(self, *exc):
        _STATE.stack.pop()
        return False
