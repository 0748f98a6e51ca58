"""Packing and unpacking ``(x, y, sample_weight)``, class weights and validation splits."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mb_data import _engines, _structure
from mb_ops import config


def unpack_x_y_sample_weight(data: Any) -> tuple[Any, Any, Any]:
    """Splits a batch into ``(x, y, sample_weight)``, as Keras's function of the same name.

    A list is read as a tuple; a tuple of one, two or three elements gives
    ``x``, ``y`` and ``sample_weight`` (missing ones are None); anything else is
    ``x`` alone.

    Example:
        >>> unpack_x_y_sample_weight((1, 2))
        (1, 2, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple) or _structure.is_namedtuple(data):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data[0], data[1], data[2]
    raise ValueError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`. "
        f"Received a tuple of {len(data)} elements: {_describe(data)}."
    )


def pack_x_y_sample_weight(x: Any, y: Any = None, sample_weight: Any = None) -> Any:
    """The inverse of :func:`unpack_x_y_sample_weight`.

    Example:
        >>> pack_x_y_sample_weight(1, 2)
        (1, 2)
    """
    if y is None:
        # A single x stays unwrapped; a tuple or list x is wrapped so it is not
        # mistaken for (x, y).
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def class_weight_to_sample_weights(
    y: Any, class_weight: dict[int, float], sample_weight: Any = None
) -> np.ndarray:
    """One weight per sample, looked up from the class of each target.

    ``y`` holds class indices (shape ``(n,)`` or ``(n, 1)``) or one-hot rows
    (shape ``(n, k)``, the class is the argmax). Classes absent from
    ``class_weight`` weigh 1. ``sample_weight`` is the caller's own weights:
    given together with ``class_weight`` they are an error, as is a ``y`` that
    is not one array (several outputs take per-output ``sample_weight``).

    Example:
        >>> class_weight_to_sample_weights(np.array([0, 1, 1]), {1: 2.0}).tolist()
        [1.0, 2.0, 2.0]
    """
    if not isinstance(class_weight, dict):
        raise TypeError(
            "`class_weight` must be a dict mapping class indices to weights, e.g. "
            f"{{0: 1.0, 1: 5.0}}. Received: {type(class_weight).__name__}."
        )
    if sample_weight is not None:
        raise ValueError(
            "`class_weight` and `sample_weight` cannot be used at the same time. "
            "Fold the class weights into `sample_weight`, or pass only one of them."
        )
    if y is None or _structure.is_nested(y):
        raise ValueError(
            "`class_weight` is only supported with a single target array `y`. "
            f"Received y of type {type(y).__name__}. Pass per-output `sample_weight` instead."
        )
    labels = _engines.to_numpy(y)
    if labels.ndim > 1:
        labels = labels.argmax(axis=-1) if labels.shape[-1] > 1 else labels[..., 0]
    labels = np.round(labels).astype("int64").reshape(-1)
    keys = np.array(sorted(class_weight), dtype="int64")
    if keys.size and labels.size:
        lookup = np.ones(max(int(keys.max()), int(labels.max())) + 1, dtype=config.floatx())
        for key in keys:
            lookup[key] = class_weight[int(key)]
        return lookup[labels]
    return np.ones(labels.shape, dtype=config.floatx())


def add_class_weight(batch: Any, class_weight: dict, source: str) -> Any:
    """``(x, y, sample_weight)`` with the sample weights looked up from ``y``'s classes."""
    x, y, sample_weight = unpack_x_y_sample_weight(batch)
    if y is None or _structure.is_nested(y):
        raise ValueError(
            f"`class_weight` needs each batch of the {source} to hold a single target array "
            f"`y`, as `(x, y)`. Received a batch whose y is {type(y).__name__}."
        )
    if sample_weight is not None:
        raise ValueError(
            f"`class_weight` cannot be combined with sample weights already yielded by the "
            f"{source}. Drop one of them."
        )
    return (x, y, class_weight_to_sample_weights(y, class_weight))


def check_data_cardinality(named_arrays: dict[str, Any]) -> int:
    """The common number of samples of ``{"x": x, "y": y, ...}``, or a clear error."""
    sizes: dict[str, list[int]] = {}
    for name, structure in named_arrays.items():
        for leaf in _structure.flatten(structure):
            sizes.setdefault(name, []).append(_engines.num_rows(leaf))
    distinct = {n for values in sizes.values() for n in values}
    if len(distinct) > 1:
        detail = "; ".join(
            f"{name} sizes: {', '.join(str(n) for n in values)}" for name, values in sizes.items()
        )
        raise ValueError(
            f"Data cardinality is ambiguous: {detail}. Make sure all arrays (x, y and "
            "sample_weight) contain the same number of samples along their first axis."
        )
    if not distinct:
        raise ValueError("Expected at least one array in `x`, received none.")
    return distinct.pop()


def train_validation_split(arrays: Any, validation_split: float) -> tuple[Any, Any]:
    """Splits arrays into a training part and the last ``validation_split`` of samples.

    As in Keras, the split is taken before any shuffling: the validation
    samples are the last ones.

    Example:
        >>> train, val = train_validation_split((np.arange(10), np.arange(10)), 0.2)
        >>> train[0].tolist(), val[1].tolist()
        ([0, 1, 2, 3, 4, 5, 6, 7], [8, 9])
    """
    if not 0.0 < validation_split < 1.0:
        raise ValueError(
            f"`validation_split` must be between 0 and 1 (exclusive). Received: {validation_split}."
        )
    leaves = _structure.flatten(arrays)
    bad = [type(leaf).__name__ for leaf in leaves if not _engines.is_array_like(leaf)]
    if bad:
        raise ValueError(
            "`validation_split` is only supported for arrays and tensors (NumPy, jax, torch, "
            f"tensorflow, pandas). Found incompatible types: {', '.join(sorted(set(bad)))}. "
            "Pass `validation_data` instead."
        )
    num_samples = {_engines.num_rows(leaf) for leaf in leaves}
    if len(num_samples) != 1:
        raise ValueError(
            "Cannot split arrays of different lengths for validation. Received first-axis "
            f"sizes {sorted(num_samples)}."
        )
    total = num_samples.pop()
    split_at = math.floor(total * (1.0 - validation_split))
    if split_at == 0 or split_at == total:
        raise ValueError(
            f"Training data contains {total} samples, which is not sufficient to split it "
            f"into a validation and training set as specified by "
            f"`validation_split={validation_split}`. Provide more data or another value."
        )

    def head(leaf):
        return leaf.iloc[:split_at] if _engines.is_pandas(leaf) else leaf[:split_at]

    def tail(leaf):
        return leaf.iloc[split_at:] if _engines.is_pandas(leaf) else leaf[split_at:]

    return _structure.map_structure(head, arrays), _structure.map_structure(tail, arrays)


def _describe(data: Any) -> str:
    parts = []
    for leaf in data:
        shape = getattr(leaf, "shape", None)
        parts.append(f"{type(leaf).__name__}{'' if shape is None else tuple(shape)}")
    return f"({', '.join(parts)})"
