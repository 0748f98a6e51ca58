"""Short descriptions of call arguments, for error messages."""

import optree

from mb_graph._keras_tensor import KerasTensor
from mb_graph.tree import NAMESPACE

_MAX_ENTRIES = 8
_MAX_REPR = 60


def describe_value(value):
    """One line: a tensor's name, shape and dtype, or a short repr."""
    if isinstance(value, KerasTensor):
        return f"KerasTensor '{value.name}' shape={value.shape} dtype={value.dtype}"
    shape = getattr(value, "shape", None)
    if shape is not None and not callable(shape):
        dtype = getattr(value, "dtype", None)
        return f"{type(value).__name__} shape={tuple(shape)} dtype={dtype}"
    text = repr(value)
    return text if len(text) <= _MAX_REPR else text[: _MAX_REPR - 3] + "..."


def _path_text(prefix, path):
    return prefix + "".join(f"[{p!r}]" for p in path)


def describe_arguments(args, kwargs):
    """Lines ``args[0]: KerasTensor 'x' shape=(2, 3) dtype=float32``, at most eight."""
    entries = []
    try:
        paths, leaves, _ = optree.tree_flatten_with_path(
            (tuple(args), dict(kwargs)), none_is_leaf=True, namespace=NAMESPACE
        )
    except Exception:  # Describing must never hide the original error.
        return f"args={args!r}, kwargs={kwargs!r}"
    for path, leaf in zip(paths, leaves, strict=True):
        prefix = "args" if path[0] == 0 else "kwargs"
        entries.append(f"{_path_text(prefix, path[1:])}: {describe_value(leaf)}")
    if not entries:
        return "no arguments"
    more = len(entries) - _MAX_ENTRIES
    shown = entries[:_MAX_ENTRIES] + ([f"... and {more} more"] if more > 0 else [])
    return "\n  " + "\n  ".join(shown)
