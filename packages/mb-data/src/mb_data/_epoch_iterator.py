"""``EpochIterator``: epochs and steps over any data adapter."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from mb_data import _convert
from mb_data._prefetch import Prefetcher
from mb_data._select import get_data_adapter
from mb_data._sharding import DataSharding
from mb_ops import backends, config
from mb_ops import distribution as distribution_api


class OutOfDataWarning(UserWarning):
    """The input ended before the epoch's expected number of steps."""


class EpochIterator:
    """Runs epochs over an input: yields ``(begin_step, end_step, batches)`` chunks.

    Each chunk holds up to ``steps_per_execution`` batches (fewer at the end
    of an epoch), already tensors of the active backend; ``end_step`` is the
    index of the chunk's last step (inclusive, as in Keras).

    Without ``steps_per_epoch`` an epoch is one pass over the data. With it,
    the underlying iterator persists across epochs, so each epoch continues
    where the last one stopped; when a re-iterable input (arrays, PyDataset,
    tf.data, torch DataLoader, grain) finishes a pass mid-epoch, a new pass
    starts seamlessly. Only a one-shot input (a generator) can run dry: the
    epoch then ends early with an :class:`OutOfDataWarning`.

    Where batches go to an accelerator through a backend that can say where (jax,
    tensorflow), they are made on a background thread, a chunk or two ahead of the
    step (:class:`~mb_data._prefetch.Prefetcher`, in the caller's device scope), so the
    copy overlaps the step; the data's own iterator is then read ahead by that much.
    On a CPU the copy is a memcpy that a thread would only slow down, so they are made
    on the calling thread, one at a time, unless ``prefetch=True``.

    Under an active `mb_ops.distribution` each batch is this process's part of
    the global batch, placed for the distribution (:class:`DataSharding`);
    ``sharding`` holds how, and ``chunk_kinds`` how each batch of the last chunk
    was split.

    Args:
        x, y, sample_weight, batch_size, shuffle, class_weight: as for
            :func:`mb_data.get_data_adapter`.
        steps_per_epoch: steps in each epoch, or None for one pass.
        steps_per_execution: batches per chunk.
        prefetch: None (where the batches go to an accelerator), True (wherever the
            backend can place them from another thread) or False: whether batches
            are made on a background thread. Never while a distribution shards the
            data.
        host_arrays: for a consumer whose compiled step places NumPy arguments on the
            device itself (jax's ``jit``, in its C++ dispatch): where batches are made
            in turn on the calling thread (no prefetch thread, no distribution), their
            NumPy arrays of numbers are yielded as they are instead of as tensors
            (other leaves are converted as usual). `place` converts such a batch for
            code that needs tensors. mb's ``fit``, ``evaluate`` and ``predict`` use it
            where the backend says its compiled steps take host arrays.

    Example:
        >>> import numpy as np
        >>> it = EpochIterator(np.arange(10.0), batch_size=4, steps_per_execution=2)
        >>> [(b, e, len(batches)) for b, e, batches in it.enumerate_epoch()]
        [(0, 1, 2), (2, 2, 1)]
    """

    def __init__(
        self,
        x: Any,
        y: Any = None,
        sample_weight: Any = None,
        batch_size: int | None = None,
        steps_per_epoch: int | None = None,
        shuffle: bool | str = False,
        class_weight: dict | None = None,
        steps_per_execution: int = 1,
        prefetch: bool | None = None,
        host_arrays: bool = False,
    ):
        self.steps_per_epoch = _optional_positive("steps_per_epoch", steps_per_epoch)
        self.steps_per_execution = (
            _optional_positive("steps_per_execution", steps_per_execution) or 1
        )
        self.sharding = DataSharding.current()
        self.prefetch = prefetch
        self.host_arrays = bool(host_arrays)
        self.data_adapter = get_data_adapter(
            x,
            y=y,
            sample_weight=sample_weight,
            batch_size=batch_size,
            steps_per_epoch=steps_per_epoch,
            shuffle=shuffle,
            class_weight=class_weight,
            seed=self.sharding.shared_seed() if self.sharding is not None else None,
        )
        self._num_batches = self.data_adapter.num_batches
        # mb.config.set_max_steps_per_epoch: a debugging cap, as Keras's. Unlike Keras, a
        # cap above the data's own number of batches changes nothing (Keras then runs
        # out of data).
        cap = config.max_steps_per_epoch()
        steps = self.steps_per_epoch or self._num_batches
        if cap and (steps is None or cap < steps):
            warnings.warn(f"Limiting steps_per_epoch to {cap}", stacklevel=2)
            self.steps_per_epoch = cap
        self.chunk_kinds: list[str] = []
        self._iterator: Iterator[Any] | None = None
        # True once the current pass has produced a batch: a pass that yields
        # nothing at all must not be restarted forever.
        self._pass_has_data = False

    @property
    def num_batches(self) -> int | None:
        """Steps per epoch: ``steps_per_epoch``, else the adapter's count, else what the
        first epoch found (None until then for inputs of unknown length)."""
        return self.steps_per_epoch or self._num_batches

    @staticmethod
    def place(batch: Any) -> Any:
        """``batch`` with every leaf a tensor of the active backend: what the iterator
        yields without ``host_arrays`` (tensors are returned as they are)."""
        return _convert.to_backend(batch)

    @staticmethod
    def only_batch(x: Any, batch_size: int | None = None, host_arrays: bool = False) -> Any:
        """The one batch an iterator over ``x`` alone would yield, made without the
        iterator, or None where that takes more than a look at ``x``.

        It is made here when ``x`` is one NumPy array of numbers of at most
        `batch_size` (default 32) rows, no distribution shards the data and the
        batches would be made on the calling thread (a CPU device); floats are cast
        to ``floatx`` as the array adapter does. What a server pays for
        ``predict(x)`` on one request: no adapter, iterator or generator to set up.

        Example:
            >>> import numpy as np
            >>> EpochIterator.only_batch(np.ones((40, 2))) is None  # two batches
            True
        """
        if type(x) is not np.ndarray or x.ndim == 0 or x.dtype.kind not in "biuf":
            return None
        size = batch_size or 32
        if type(size) is not int or not 0 < len(x) <= size:
            return None
        if distribution_api.distribution() is not None:
            return None
        placement = backends.lookup("core", "placement")
        if placement is not None and placement(only_for_accelerators=True) is not None:
            return None  # prefetched on a thread, in the caller's device scope
        if x.dtype.kind == "f" and x.dtype.name != config.floatx():
            x = x.astype(config.floatx())
        return x if host_arrays else _convert.backend_converter()(x)

    def reset(self) -> None:
        """Drops the persistent iterator: the next epoch starts a new pass."""
        self._close_iterator()
        self._num_batches = self.data_adapter.num_batches

    def __iter__(self) -> Iterator[tuple[int, int, list[Any]]]:
        return self.enumerate_epoch()

    def enumerate_epoch(self) -> Iterator[tuple[int, int, list[Any]]]:
        """One epoch: ``(begin_step, end_step, batches)`` chunks."""
        adapter = self.data_adapter
        adapter.on_epoch_begin()
        try:
            yield from self._epoch()
        except BaseException:
            # A pass that failed (e.g. a PyDataset worker raised) is not resumed.
            self._close_iterator()
            raise
        finally:
            adapter.on_epoch_end()

    def _epoch(self) -> Iterator[tuple[int, int, list[Any]]]:
        target = self.num_batches
        if self._iterator is None or self.steps_per_epoch is None:
            self._new_pass()
        step = 0
        ran_dry = False
        while target is None or step < target:
            want = self.steps_per_execution
            if target is not None:
                want = min(want, target - step)
            batches: list[Any] = []
            if self.sharding is not None:
                self.sharding.clear()
            while len(batches) < want:
                try:
                    batches.append(next(self._iterator))
                    self._pass_has_data = True
                except StopIteration:
                    if self._can_start_new_pass():
                        self._new_pass()
                        continue
                    ran_dry = True
                    break
            if batches:
                if self.sharding is not None:
                    self.chunk_kinds = self.sharding.kinds[-len(batches) :]
                yield step, step + len(batches) - 1, batches
                step += len(batches)
            if ran_dry:
                break
        if ran_dry:
            self._close_iterator()
            if self._num_batches is None and self.steps_per_epoch is None:
                # Running out is how a first epoch of unknown length ends.
                self._num_batches = step
            elif target is not None and step < target:
                self._warn_out_of_data(step, target)
        elif self.steps_per_epoch is None:
            self._close_iterator()

    def _can_start_new_pass(self) -> bool:
        return (
            self.steps_per_epoch is not None
            and self.data_adapter.can_restart
            and self._pass_has_data
        )

    def _new_pass(self) -> None:
        self._close_iterator()
        if self.sharding is not None:
            # Not read ahead: each batch's split is recorded as it is made.
            self._iterator = self.data_adapter.get_sharded_iterator(self.sharding)
        else:
            placement = backends.lookup("core", "placement")
            enter = None
            if placement is not None and self.prefetch is not False:
                enter = placement(only_for_accelerators=self.prefetch is None)
            if enter is not None:
                # Converted on the thread: the copy to the device overlaps the step.
                depth = max(2, self.steps_per_execution + 1)
                self._iterator = Prefetcher(self.data_adapter.get_iterator(), enter, depth=depth)
            elif self.host_arrays:
                self._iterator = self.data_adapter.get_host_iterator()
            else:
                self._iterator = self.data_adapter.get_iterator()
        self._pass_has_data = False

    def _close_iterator(self) -> None:
        iterator, self._iterator = self._iterator, None
        close = getattr(iterator, "close", None)
        if close is not None:
            close()

    def _warn_out_of_data(self, step: int, target: int) -> None:
        warnings.warn(
            f"Your input ran out of data after {step} of the {target} steps of this epoch; "
            "the epoch ends early. A Python generator can be read only once: make sure it "
            "yields at least steps_per_epoch * epochs batches, or use a PyDataset or a "
            "tf.data.Dataset with .repeat().",
            OutOfDataWarning,
            stacklevel=3,
        )


def _optional_positive(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"`{name}` must be a positive integer or None. Received: {value!r}.")
    return value
