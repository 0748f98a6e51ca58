"""grain ``MapDataset``, ``IterDataset`` and ``DataLoader`` pipelines (grain not imported)."""

from __future__ import annotations

import sys
from typing import Any

from mb_data._adapters.base import BatchIterableAdapter

_GRAIN_KINDS = ("MapDataset", "IterDataset", "DataLoader")


def grain_kind(x: Any) -> str | None:
    """``"MapDataset"``, ``"IterDataset"``, ``"DataLoader"`` for grain objects, else None."""
    for parent in type(x).__mro__:
        if parent.__name__ in _GRAIN_KINDS and parent.__module__.startswith("grain."):
            return parent.__name__
    return None


class GrainDatasetAdapter(BatchIterableAdapter):
    """Batches of a grain pipeline, which must already be batched (``.batch(n)``
    or a ``grain.transforms.Batch`` operation).

    grain yields NumPy arrays; each batch goes to the backend once (on jax a
    single host-to-device transfer). Multiprocess prefetching
    (``IterDataset.mp_prefetch`` or ``DataLoader(worker_count=...)``) is grain's own.

    Args:
        dataset: a ``grain.MapDataset``, ``grain.IterDataset`` or ``grain.DataLoader``.
    """

    def __init__(self, dataset: Any):
        kind = grain_kind(dataset)
        if kind is None:
            raise TypeError(
                "Expected a grain MapDataset, IterDataset or DataLoader. "
                f"Received: {type(dataset).__name__}."
            )
        self._dataset = dataset
        self._kind = kind
        num_batches = None
        if kind == "MapDataset":
            length = len(dataset)
            # A repeated MapDataset reports sys.maxsize: treat it as infinite.
            num_batches = length if length < sys.maxsize else None
        super().__init__(dataset, num_batches)

    @property
    def presharded(self) -> bool:
        """A grain ``DataLoader`` whose ``shard_options`` split the data over processes
        (``grain.sharding.ShardByJaxProcess``, ``ShardOptions(index, count)``)."""
        options = getattr(self._dataset, "_shard_options", None)
        return options is not None and int(getattr(options, "shard_count", 1)) > 1
