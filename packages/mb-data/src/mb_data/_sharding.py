"""Each process's part of every batch, under an active `mb_ops.distribution`.

An input yields *global* batches (the ``batch_size`` a user gives is the global
one, as in Keras). With ``P`` processes each reads a contiguous ``1/P`` of every
batch: process ``r`` keeps rows ``[r * b / P, (r + 1) * b / P)``, so over an epoch
no sample is read by two processes. A batch that does not split evenly over the
model replicas (a last, partial batch) is read whole by every process and
computed whole by every replica: XLA needs equal parts, and identical copies
average to the same gradient, so training still matches one device.

Inputs that are already split per process are passed through: a torch
``DataLoader`` with a ``DistributedSampler``, a grain ``DataLoader`` whose
``shard_options`` split it, or any input when the distribution has
``auto_shard_dataset=False``.

Each batch is then placed by the backend (``distribute_data_input``): one global
array split over the mesh's batch axis on JAX, the local tensor on PyTorch.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from mb_data import _convert, _structure, _text
from mb_ops import distribution as distribution_api
from mb_ops._distribution import _state

SPLIT = "split"  # this process's rows of a global batch
WHOLE = "whole"  # the whole batch, on every process (it does not split evenly)
LOCAL = "local"  # a batch the input already made for this process


class DataSharding:
    """How this process reads and places its part of each batch.

    Args:
        distribution: the active `mb_ops.distribution.Distribution`.

    Example:
        >>> from mb_ops.distribution import DataParallel
        >>> sharding = DataSharding(DataParallel(devices=["cpu:0"]))
        >>> sharding.rows(10)
        (slice(0, 10, None), 'split')
    """

    def __init__(self, distribution: Any):
        self.distribution = distribution
        self.num_shards, self.index = distribution.data_shards()
        self.replicas = max(int(distribution.num_model_replicas), 1)
        self.kinds: list[str] = []  # of the batches read since the last `clear`
        self._batches = 0
        self._place_leaf = _state.optional_function("distribute_data_input")

    @classmethod
    def current(cls) -> DataSharding | None:
        """The sharding of the active distribution, or None when there is none."""
        active = distribution_api.distribution()
        return None if active is None else cls(active)

    def shared_seed(self) -> int | None:
        """A shuffling seed every process agrees on (process 0's), so that they split
        the same order of samples; None in one process (a collective otherwise)."""
        if self.num_shards < 2:
            return None
        broadcast = _state.optional_function("broadcast_int")
        seed = int(np.random.randint(2**31 - 1))
        return seed if broadcast is None else int(broadcast(seed))

    def rows(self, batch_size: int) -> tuple[slice, str]:
        """The rows of a global batch of `batch_size` this process reads, and how."""
        if batch_size % self.replicas or batch_size % self.num_shards:
            return slice(0, batch_size), WHOLE
        part = batch_size // self.num_shards
        return slice(self.index * part, (self.index + 1) * part), SPLIT

    def take(self, batch: Any, presharded: bool = False) -> Any:
        """This process's part of a global `batch` (any structure), placed."""
        if presharded:
            return self.place(batch, LOCAL)
        size = batch_size_of(batch)
        if size is None:
            return self.place(batch, WHOLE)
        rows, kind = self.rows(size)
        if kind == SPLIT and self.num_shards > 1:
            batch = _structure.map_structure(lambda leaf: _rows(leaf, rows), batch)
        return self.place(batch, kind)

    def place(self, batch: Any, kind: str) -> Any:
        """`batch` (this process's rows) as the backend's tensors, laid out for `kind`."""
        if kind == WHOLE and self._batches == 0 and self.replicas > 1:
            size = batch_size_of(batch)
            warnings.warn(
                f"The first batch ({size} samples) does not split evenly over the "
                f"{self.replicas} model replicas of the distribution, so every replica "
                "computes it whole (no speed-up). Use a batch size divisible by "
                f"{self.replicas}.",
                stacklevel=2,
            )
        self._batches += 1
        self.kinds.append(kind)
        _text.check_batch(batch)
        if self._place_leaf is None:
            return _convert.to_backend(batch)
        distribution = self.distribution
        mesh = distribution.device_mesh
        batch_dim = distribution.batch_dim_name

        def place(leaf: Any) -> Any:
            if leaf is None:
                return None
            shape = tuple(getattr(leaf, "shape", ()) or ())
            if not shape:
                return _convert.to_backend(leaf)
            if kind == WHOLE:
                layout = distribution_api.TensorLayout([None] * len(shape), mesh)
            else:
                layout = distribution.get_data_layout(shape)
            return self._place_leaf(_host_or_tensor(leaf), layout, batch_dim)

        return _structure.map_structure(place, batch)

    def clear(self) -> None:
        """Forgets the kinds of the batches read so far."""
        self.kinds = []

    def gather(self, outputs: Any, kind: str) -> Any:
        """The step's outputs on this process's rows, as NumPy arrays of the whole batch."""
        gather = _state.optional_function("gather_batch")
        if gather is None:
            return _structure.map_structure(_convert.to_numpy, outputs)
        replicated = kind == WHOLE or self.num_shards == 1
        return _structure.map_structure(lambda t: gather(t, replicated), outputs)


def batch_size_of(batch: Any) -> int | None:
    """The first axis of the batch's first array, or None when it has none."""
    for leaf in _structure.flatten(batch):
        shape = getattr(leaf, "shape", None)
        if shape is not None and len(shape):
            return int(shape[0])
    return None


def _rows(leaf: Any, rows: slice) -> Any:
    if leaf is None or not getattr(leaf, "shape", None):
        return leaf
    return leaf[rows]


def _host_or_tensor(leaf: Any) -> Any:
    # NumPy goes to the engine in one transfer; other engines' tensors through the
    # backend's conversion first.
    return leaf if isinstance(leaf, np.ndarray) else _convert.to_backend(leaf)
