"""Traceback filtering: errors raised through mb's entry points (a layer call, ``fit``)
show the caller's frames, not mb's internals, as Keras's do.

Switched with ``config.enable_traceback_filtering`` / ``disable_traceback_filtering``.
"""

from __future__ import annotations

import functools
import os
import traceback
import types

from mb_ops._config import is_traceback_filtering_enabled

# TensorFlow's own machinery, hidden too (as Keras hides it).
_EXCLUDED_PATHS = (os.path.join("tensorflow", "python"),)


def is_internal_frame(frame: types.FrameType) -> bool:
    """Whether `frame` runs code of an mb package (``mb``, ``mb_*``) or TensorFlow's."""
    module = frame.f_globals.get("__name__") or ""
    if module == "mb" or module.startswith(("mb.", "mb_")):
        return True
    filename = frame.f_code.co_filename
    return any(path in filename for path in _EXCLUDED_PATHS)


def filtered_traceback(tb: types.TracebackType | None) -> types.TracebackType | None:
    """`tb` without internal frames (the innermost, where the error was raised, kept if
    none is left)."""
    entries = list(traceback.walk_tb(tb))
    kept = None
    for frame, line in reversed(entries):
        if not is_internal_frame(frame):
            kept = types.TracebackType(kept, frame, frame.f_lasti, line)
    if kept is None and entries:
        frame, line = entries[-1]
        kept = types.TracebackType(None, frame, frame.f_lasti, line)
    return kept


def filter_traceback(fn):
    """Wraps `fn` so that exceptions leaving it carry a filtered traceback.

    mb's own frames (``mb``, ``mb_*`` modules) and TensorFlow's are dropped from the
    traceback, unless ``config.disable_traceback_filtering()`` was called; the
    exception itself (its type, message, ``__cause__``) is unchanged.

    Args:
        fn: a function.

    Returns:
        The wrapped function.

    Example:

    >>> import mb_ops
    >>> @mb_ops.filter_traceback
    ... def check(x):
    ...     if x < 0:
    ...         raise ValueError(f"expected x >= 0, received {x}")
    ...     return x
    >>> check(2)
    2
    >>> try:
    ...     check(-1)
    ... except ValueError as error:
    ...     print(error)
    expected x >= 0, received -1
    """

    @functools.wraps(fn)
    def error_handler(*args, **kwargs):
        if not is_traceback_filtering_enabled():
            return fn(*args, **kwargs)
        try:
            return fn(*args, **kwargs)
        except Exception as error:
            # To see every frame: mb.config.disable_traceback_filtering(). The error
            # itself is re-raised: its __cause__ and __context__ stay as they were.
            error.__traceback__ = filtered_traceback(error.__traceback__)
            raise

    return error_handler
