"""Text and Python objects in the data: a clear error naming the input, before any engine sees it.

Model inputs are numbers or booleans; strings reach a model only on a backend
whose tensors hold them (asked once: does its ``convert_to_tensor`` take a
one-element string array?) and then only where the model takes strings (a
string ``Input``). An array of strings on a backend without string tensors,
or an array of Python objects that are not all text, is refused with the
input's name (``x[0]``, ``x['text']``, ``y``), its dtype and what is accepted,
instead of an engine's message from deep inside a compiled step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mb_data import _engines, _structure
from mb_ops import backends, config

ACCEPTED = "arrays of numbers or booleans (int, float or bool dtypes)"
_NAMES = ("x", "y", "sample_weight")
_HOLDS_STRINGS: dict[str, bool] = {}


def holds_strings() -> bool:
    """Whether the active backend's tensors hold strings (asked once per backend)."""
    name = config.backend()
    if name not in _HOLDS_STRINGS:
        try:
            backends.backend_module("core").convert_to_tensor(np.asarray(["a"]))
        except Exception:
            _HOLDS_STRINGS[name] = False
        else:
            _HOLDS_STRINGS[name] = True
    return _HOLDS_STRINGS[name]


def _label(path: str) -> str:
    if path.startswith("y"):
        return f"The targets {path} are"
    if path.startswith("sample_weight"):
        return f"The sample weights {path} are"
    return f"The input {path} is"


def _first_non_text(array: np.ndarray) -> Any:
    for item in array.flat:
        if not isinstance(item, (str, bytes)):
            return item
    return None


def check_leaf(path: str, leaf: Any) -> None:
    """Raises `TypeError` when `leaf` holds text the backend cannot take, or objects."""
    if _engines.is_pandas(leaf):
        leaf = leaf.to_numpy()
    dtype = getattr(leaf, "dtype", None)
    if isinstance(dtype, np.dtype):
        if dtype.kind == "O":
            odd = _first_non_text(leaf)
            if odd is not None:
                raise TypeError(
                    f"{_label(path)} an array of Python objects (dtype object), with "
                    f"elements such as {odd!r} ({type(odd).__name__}). Accepted: {ACCEPTED}"
                    f"{', or text where the model takes strings' if holds_strings() else ''}. "
                    f"Convert it first, e.g. numpy.asarray({path.split('[')[0]}, "
                    "dtype='float32')."
                )
        elif dtype.kind not in "US":
            return
    elif dtype is None or _engines.dtype_name(leaf) != "string":
        return
    if not holds_strings():
        raise TypeError(
            f"{_label(path)} an array of strings (dtype {dtype}), and the "
            f"{config.backend()} backend's tensors hold only numbers and booleans. Accepted: "
            f"{ACCEPTED}. Turn the text into numbers before it reaches the model (e.g. a "
            "StringLookup or TextVectorization layer in a tf.data pipeline, or a vocabulary "
            "mapping in NumPy), or use a backend whose tensors hold strings (tensorflow)."
        )


def check_structure(structure: Any, name: str) -> None:
    """`check_leaf` on every leaf of `structure`, named from `name` (``x``, ``y``, ...)."""
    for path, leaf in _structure.flatten_with_paths(structure, name):
        check_leaf(path, leaf)


def is_numeric(leaf: Any) -> bool:
    # What check_leaf passes at once: NumPy (or jax) numbers and booleans, and other
    # engines' tensors that are not strings.
    dtype = getattr(leaf, "dtype", None)
    if isinstance(dtype, np.dtype):
        return dtype.kind in "biufc"
    if dtype is None or _engines.is_pandas(leaf):
        return False
    return _engines.dtype_name(leaf) != "string"


def check_batch(batch: Any) -> None:
    """`check_structure` on an ``(x, y, sample_weight)`` batch (or a bare ``x``)."""
    if all(is_numeric(leaf) for leaf in _structure.flatten(batch)):
        return  # numbers and booleans only (the usual batch): nothing to name
    if isinstance(batch, tuple) and not _structure.is_namedtuple(batch) and len(batch) <= 3:
        for name, part in zip(_NAMES, batch, strict=False):
            check_structure(part, name)
    else:
        check_structure(batch, "x")
