"""``tf.data.Dataset`` pipelines, iterated eagerly; batches stay TensorFlow tensors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mb_data import _packing, _structure
from mb_data._adapters.base import DataAdapter

_INFINITE = -1
_UNKNOWN = -2


def is_tf_dataset(x: Any) -> bool:
    """True for ``tf.data.Dataset`` and its subclasses (TensorFlow is not imported)."""
    return any(
        parent.__name__ in ("DatasetV2", "DistributedDataset", "DistributedDatasetsFromFunction")
        and parent.__module__.startswith("tensorflow.")
        for parent in type(x).__mro__
    )


class TFDatasetAdapter(DataAdapter):
    """Batches of a ``tf.data.Dataset``, which must already be batched.

    The batches are handed to the backend as TensorFlow tensors: the
    tensorflow backend takes them as they are, jax and torch through DLPack.

    Args:
        dataset: a batched ``tf.data.Dataset`` yielding ``x``, ``(x, y)`` or
            ``(x, y, sample_weight)``.
        class_weight: optional dict from class index to weight; the weights are
            looked up from ``y`` of each batch and added as its sample weights.
    """

    fresh_batches = True  # TensorFlow tensors are immutable

    def __init__(self, dataset: Any, class_weight: dict | None = None):
        self._dataset = dataset
        self._class_weight = class_weight
        cardinality = int(dataset.cardinality())
        self._num_batches = cardinality if cardinality >= 0 else None
        self._infinite = cardinality == _INFINITE

    def get_native_iterator(self) -> Iterator[Any]:
        for batch in self._dataset:
            batch = _structure.list_to_tuple(batch)
            if self._class_weight is not None:
                batch = _packing.add_class_weight(batch, self._class_weight, "tf.data.Dataset")
            yield batch

    @property
    def num_batches(self) -> int | None:
        return self._num_batches
