"""The interface every data adapter implements."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mb_data import _convert, _structure


class DataAdapter:
    """Turns one kind of input into passes of batches for :class:`mb_data.EpochIterator`.

    A subclass implements :meth:`get_native_iterator`: one pass over the data,
    batches as the source makes them (NumPy arrays, or the tensors of the
    engine that produced them). :meth:`get_iterator` hands each leaf to the
    active backend's ``convert_to_tensor`` unchanged, so a tensor already of
    the backend's engine is never copied through the host.
    """

    #: Whether :meth:`get_native_iterator` can start a new pass after one ends.
    #: False only for one-shot sources such as a Python generator.
    can_restart: bool = True

    #: Whether the source never writes into a batch's tensors once it has yielded
    #: them (so that host views of them need no private copy): ``tf.data`` (immutable
    #: tensors), a torch ``DataLoader`` collating each batch into new tensors.
    fresh_batches: bool = False

    def get_native_iterator(self) -> Iterator[Any]:
        """One pass over the data, batches as the source produces them."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_native_iterator().")

    def get_iterator(self) -> Iterator[Any]:
        """One pass over the data, every leaf a tensor of the active backend."""
        convert = _convert.BatchConverter()
        for batch in self.get_native_iterator():
            yield convert(batch)

    def get_host_iterator(self) -> Iterator[Any]:
        """One pass over the data for a compiled step that places NumPy arguments itself:
        NumPy arrays of numbers stay on the host (copied: the source may reuse their
        buffer for its next batch), every other leaf a tensor of the active backend."""
        convert = _convert.BatchConverter(host_arrays=True, copy_views=not self.fresh_batches)
        for batch in self.get_native_iterator():
            yield convert(batch)

    def get_sharded_iterator(self, sharding: Any) -> Iterator[Any]:
        """One pass, this process's part of every batch, placed by `sharding`
        (an :class:`mb_data.DataSharding`, under an active distribution)."""
        presharded = self.presharded or not sharding.distribution.auto_shard_dataset
        for batch in self.get_native_iterator():
            yield sharding.take(batch, presharded=presharded)

    @property
    def presharded(self) -> bool:
        """Whether the input already yields only this process's batches (a torch
        ``DataLoader`` with a ``DistributedSampler``, a sharded grain loader)."""
        return False

    def get_numpy_iterator(self) -> Iterator[Any]:
        """One pass over the data, every leaf a NumPy array."""
        for batch in self.get_native_iterator():
            yield _convert.to_numpy(batch)

    @property
    def num_batches(self) -> int | None:
        """Batches in one pass, or None when unknown or infinite."""
        return None

    @property
    def batch_size(self) -> int | None:
        """The batch size where the adapter knows it, else None."""
        return None

    @property
    def has_partial_batch(self) -> bool | None:
        """Whether the last batch of a pass is smaller, None when unknown."""
        return None

    @property
    def partial_batch_size(self) -> int | None:
        """The size of the last, smaller batch, or None."""
        return None

    def on_epoch_begin(self) -> None:
        """Called by the epoch iterator when a training epoch starts."""

    def on_epoch_end(self) -> None:
        """Called by the epoch iterator when a training epoch ends."""


class BatchIterableAdapter(DataAdapter):
    """An adapter over a pipeline that yields whole batches when iterated (a torch
    ``DataLoader``, a grain pipeline): lists are read as tuples, and `num_batches` is
    what the subclass found (None: unknown or infinite)."""

    def __init__(self, batches: Any, num_batches: int | None):
        self._batches = batches
        self._num_batches = num_batches

    def get_native_iterator(self) -> Iterator[Any]:
        for batch in self._batches:
            yield _structure.list_to_tuple(batch)

    @property
    def num_batches(self) -> int | None:
        return self._num_batches
