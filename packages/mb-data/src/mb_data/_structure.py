"""Nested batch structures: lists, tuples (named ones too) and dicts of leaves.

mb_data may import only mb_ops of mb, so it walks structures itself. ``None``
is kept in place and never handed to the leaf function, as Keras does for
missing targets or sample weights.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def is_nested(x: Any) -> bool:
    """True for the containers a batch may be made of: list, tuple, dict."""
    return isinstance(x, (list, tuple, dict))


def map_structure(fn: Callable[[Any], Any], structure: Any) -> Any:
    """``structure`` with every non-None leaf replaced by ``fn(leaf)``."""
    if structure is None:
        return None
    kind = type(structure)
    if kind is tuple:  # the common (x, y[, sample_weight]) batch: no namedtuple check
        return tuple([map_structure(fn, v) for v in structure])
    if kind is np.ndarray:
        return fn(structure)
    if isinstance(structure, dict):
        return type(structure)((k, map_structure(fn, v)) for k, v in structure.items())
    if is_namedtuple(structure):
        return type(structure)(*(map_structure(fn, v) for v in structure))
    if isinstance(structure, (list, tuple)):
        return type(structure)(map_structure(fn, v) for v in structure)
    return fn(structure)


def flatten(structure: Any) -> list[Any]:
    """The non-None leaves of ``structure``, in order (dicts in insertion order)."""
    leaves: list[Any] = []
    map_structure(leaves.append, structure)
    return leaves


def flatten_with_paths(structure: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """``(path, leaf)`` pairs, paths written as ``x[0]['a']``-style suffixes of ``prefix``."""
    if structure is None:
        return []
    if isinstance(structure, dict):
        items = [(f"{prefix}[{k!r}]", v) for k, v in structure.items()]
    elif isinstance(structure, (list, tuple)):
        items = [(f"{prefix}[{i}]", v) for i, v in enumerate(structure)]
    else:
        return [(prefix, structure)]
    out: list[tuple[str, Any]] = []
    for path, value in items:
        out.extend(flatten_with_paths(value, path))
    return out


def list_to_tuple(x: Any) -> Any:
    """A top-level list becomes a tuple (torch's collate and generators yield lists)."""
    return tuple(x) if isinstance(x, list) else x
