"""torch ``DataLoader`` pipelines; batches stay torch tensors (torch is not imported)."""

from __future__ import annotations

from typing import Any

from mb_data._adapters.base import BatchIterableAdapter


def is_torch_dataloader(x: Any) -> bool:
    """True for ``torch.utils.data.DataLoader`` and its subclasses."""
    return any(
        parent.__name__ == "DataLoader" and parent.__module__.startswith("torch.utils.data")
        for parent in type(x).__mro__
    )


class TorchDataLoaderAdapter(BatchIterableAdapter):
    """Batches of a torch ``DataLoader``, as it collates them.

    The torch backend takes the batches as they are (no copy through NumPy);
    jax and tensorflow take them through DLPack. Shuffling, workers and
    prefetching are the DataLoader's own.

    Args:
        dataloader: a ``torch.utils.data.DataLoader`` yielding ``x``,
            ``(x, y)`` or ``(x, y, sample_weight)`` (lists are read as tuples).
    """

    def __init__(self, dataloader: Any):
        self._dataloader = dataloader
        try:
            num_batches = len(dataloader)
        except TypeError:  # an IterableDataset without __len__
            num_batches = None
        super().__init__(dataloader, num_batches)

    @property
    def fresh_batches(self) -> bool:
        """Batches collated by torch's ``default_collate`` are new tensors (stacked)."""
        loader = self._dataloader
        collate = getattr(loader, "collate_fn", None)
        return (
            getattr(loader, "batch_sampler", None) is not None
            and getattr(collate, "__name__", None) == "default_collate"
            and getattr(collate, "__module__", "").startswith("torch.utils.data")
        )

    @property
    def presharded(self) -> bool:
        """A ``DistributedSampler`` (or a batch sampler over one) already gives each
        process its own samples."""
        loader = self._dataloader
        samplers = [getattr(loader, "sampler", None), getattr(loader, "batch_sampler", None)]
        samplers.append(getattr(samplers[1], "sampler", None))
        return any(_is_distributed_sampler(s) for s in samplers if s is not None)

    @property
    def batch_size(self) -> int | None:
        return self._dataloader.batch_size

    @property
    def has_partial_batch(self) -> bool | None:
        size = self.batch_size
        try:
            samples = len(self._dataloader.dataset)
        except TypeError:
            return None
        if not size or self._dataloader.drop_last:
            return False if size else None
        return samples % size != 0

    @property
    def partial_batch_size(self) -> int | None:
        if not self.has_partial_batch:
            return None
        return len(self._dataloader.dataset) % self.batch_size


def _is_distributed_sampler(sampler: Any) -> bool:
    return any(
        parent.__name__ == "DistributedSampler" and parent.__module__.startswith("torch.utils.data")
        for parent in type(sampler).__mro__
    )
