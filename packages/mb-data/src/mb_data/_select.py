"""Choosing the adapter for an input, with the errors for inputs that do not fit."""

from __future__ import annotations

import collections.abc
import types
from typing import Any

from mb_data import _engines, _structure
from mb_data._adapters.array import ACCEPTED_ARRAYS, ArrayDataAdapter, can_convert_arrays
from mb_data._adapters.base import DataAdapter
from mb_data._adapters.generator import GeneratorDataAdapter
from mb_data._adapters.grain_dataset import GrainDatasetAdapter, grain_kind
from mb_data._adapters.py_dataset import PyDatasetAdapter
from mb_data._adapters.tf_dataset import TFDatasetAdapter, is_tf_dataset
from mb_data._adapters.torch_loader import TorchDataLoaderAdapter, is_torch_dataloader
from mb_data._py_dataset import PyDataset

ACCEPTED_INPUTS = (
    f"{ACCEPTED_ARRAYS}; a Python generator or iterator; an mb_data.PyDataset; a "
    "tf.data.Dataset; a torch DataLoader; a grain MapDataset, IterDataset or DataLoader; "
    "or a DataAdapter"
)


def get_data_adapter(
    x: Any,
    y: Any = None,
    sample_weight: Any = None,
    batch_size: int | None = None,
    steps_per_epoch: int | None = None,
    shuffle: bool | str = False,
    class_weight: dict | None = None,
    seed: int | None = None,
) -> DataAdapter:
    """The data adapter for ``x`` (and ``y``, ``sample_weight`` when ``x`` holds arrays).

    Arrays and tensors are batched and shuffled by the adapter (and a PyDataset's
    batches by it), from `seed` (None: drawn from NumPy's global generator); pipelines
    (generators, PyDataset, tf.data, torch DataLoader, grain) yield their own
    batches, which must then hold the targets and sample weights themselves.

    Example:
        >>> import numpy as np
        >>> adapter = get_data_adapter(np.zeros((10, 3)), np.zeros(10), batch_size=4)
        >>> type(adapter).__name__, adapter.num_batches, adapter.partial_batch_size
        ('ArrayDataAdapter', 3, 2)
    """
    if isinstance(x, DataAdapter):
        return x
    if can_convert_arrays(x) or _holds_arrays(x):
        # A structure with some arrays goes to the array adapter, whose error
        # names the leaves that are not arrays.
        return ArrayDataAdapter(
            x,
            y,
            sample_weight=sample_weight,
            batch_size=batch_size,
            steps=steps_per_epoch,
            shuffle=shuffle,
            class_weight=class_weight,
            seed=seed,
        )
    kind = _pipeline_kind(x)
    if kind is None:
        raise TypeError(
            f"Unrecognized data type: x of type {_type_name(x)}"
            f"{'' if y is None else f' with y of type {_type_name(y)}'}. Accepted: "
            f"{ACCEPTED_INPUTS}. Python lists of numbers must be converted with numpy.asarray."
        )
    for name, value, what in (("y", y, "targets"), ("sample_weight", sample_weight, "weights")):
        if value is not None:
            raise ValueError(
                f"`{name}` should not be passed when `x` is a {kind}: the {kind} must yield "
                f"the {what} itself, as `(x, y)` or `(x, y, sample_weight)` batches. "
                f"Received {name} of type {_type_name(value)}."
            )
    if class_weight is not None and kind not in ("tf.data.Dataset", "PyDataset"):
        raise ValueError(
            f"`class_weight` is not supported when `x` is a {kind}. Yield "
            "`(x, y, sample_weight)` batches with the weights instead. "
            f"Received class_weight={class_weight!r}."
        )
    # `shuffle` (fit's default is True) means nothing to a pipeline that orders its
    # own data; Keras ignores it silently, and so does mb (a finite PyDataset reorders
    # its batches).
    if kind == "PyDataset":
        return PyDatasetAdapter(x, shuffle=bool(shuffle), class_weight=class_weight, seed=seed)
    if kind == "tf.data.Dataset":
        return TFDatasetAdapter(x, class_weight=class_weight)
    if kind == "torch DataLoader":
        return TorchDataLoaderAdapter(x)
    if kind.startswith("grain"):
        return GrainDatasetAdapter(x)
    return GeneratorDataAdapter(x)


def _pipeline_kind(x: Any) -> str | None:
    if isinstance(x, PyDataset):
        return "PyDataset"
    if is_tf_dataset(x):
        return "tf.data.Dataset"
    if is_torch_dataloader(x):
        return "torch DataLoader"
    kind = grain_kind(x)
    if kind is not None:
        return f"grain {kind}"
    if isinstance(x, (types.GeneratorType, collections.abc.Iterator)):
        return "Python generator"
    return None


def _holds_arrays(x: Any) -> bool:
    return _structure.is_nested(x) and any(
        _engines.is_array_like(leaf) for leaf in _structure.flatten(x)
    )


def _type_name(x: Any) -> str:
    cls = type(x)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
