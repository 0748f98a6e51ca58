"""``PyDataset`` inputs: batches read by index, in parallel when the dataset asks for it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from mb_data import _convert, _packing, _structure
from mb_data._adapters.base import DataAdapter
from mb_data._py_dataset import PyDataset
from mb_data._workers import ProcessReader, ThreadReader


class PyDatasetAdapter(DataAdapter):
    """Batches of a :class:`mb_data.PyDataset`, read by its ``workers`` threads or
    processes, at most ``max_queue_size`` ahead, always in index order.

    Args:
        dataset: the PyDataset.
        shuffle: read the batches of each pass in a new random order (finite
            datasets only).
        class_weight: optional dict from class index to weight, added to each
            ``(x, y)`` batch as sample weights.
        seed: base seed of the shuffles; None draws one from NumPy's global RNG.
    """

    def __init__(
        self,
        dataset: PyDataset,
        shuffle: bool = False,
        class_weight: dict | None = None,
        seed: int | None = None,
    ):
        self._dataset = dataset
        self._shuffle = bool(shuffle)
        self._class_weight = class_weight
        self._seed = int(np.random.randint(2**31 - 1)) if seed is None else int(seed)
        self._passes = 0

    def _indices(self) -> Iterator[int]:
        num_batches = self._dataset.num_batches
        if num_batches is None:
            return itertools.count()
        order = np.arange(num_batches)
        if self._shuffle:
            order = np.random.default_rng([self._seed, self._passes]).permutation(num_batches)
        self._passes += 1
        return iter(order.tolist())

    def _standardize(self, batch: Any) -> Any:
        batch = _structure.list_to_tuple(batch)
        if self._class_weight is not None:
            batch = _packing.add_class_weight(batch, self._class_weight, "PyDataset")
        return batch

    def _pass(self, transform, prepare) -> Iterator[Any]:
        """``transform(prepare(dataset[i]))`` for each index of a pass; `prepare` runs
        on the worker threads where there are some."""
        dataset = self._dataset
        if dataset.use_multiprocessing:
            # The processes run only `__getitem__`; `prepare` runs here.
            return ProcessReader(
                dataset,
                self._indices(),
                workers=dataset.workers,
                depth=dataset.max_queue_size,
                transform=lambda batch: transform(prepare(batch)),
            )
        if dataset.workers > 1:
            read = dataset.__getitem__
            return ThreadReader(
                lambda i: prepare(read(i)),
                self._indices(),
                workers=dataset.workers,
                depth=dataset.max_queue_size,
                transform=None if transform is _identity else transform,
            )
        return (transform(prepare(dataset[i])) for i in self._indices())

    def get_native_iterator(self) -> Iterator[Any]:
        return self._pass(_identity, self._standardize)

    def get_iterator(self) -> Iterator[Any]:
        return self._pass(_convert.BatchConverter(), self._standardize)

    def get_host_iterator(self) -> Iterator[Any]:
        # Private copies of the NumPy arrays (a dataset may reuse its buffers), made
        # with the read, on a worker thread when there are some; arrays from worker
        # processes arrive as new arrays already.
        convert = _convert.BatchConverter(host_arrays=True, copy=False, copy_views=True)
        if self._dataset.use_multiprocessing:
            return self._pass(convert, self._standardize)
        copy = _convert.private_copies
        return self._pass(convert, lambda batch: copy(self._standardize(batch)))

    @property
    def num_batches(self) -> int | None:
        return self._dataset.num_batches

    def on_epoch_begin(self) -> None:
        self._dataset.on_epoch_begin()

    def on_epoch_end(self) -> None:
        self._dataset.on_epoch_end()


def _identity(batch: Any) -> Any:
    return batch
