"""Export pieces shared by the backends that convert to a ``tf.function`` (jax, tensorflow)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _is_spec(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (dict, list, tuple))


def map_specs(fn: Callable[[Any], Any], structure: Any) -> Any:
    """``fn`` applied to each input spec (an object with ``.shape`` and ``.dtype``) of
    ``structure``, a spec or a list/tuple/dict of them, keeping the structure.

    >>> from types import SimpleNamespace as Spec
    >>> map_specs(lambda s: s.shape, {"a": Spec(shape=(2,), dtype="int8"), "b": []})
    {'a': (2,), 'b': []}
    """
    if isinstance(structure, dict):
        return {k: map_specs(fn, v) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)) and not _is_spec(structure):
        return type(structure)(map_specs(fn, v) for v in structure)
    return fn(structure)
