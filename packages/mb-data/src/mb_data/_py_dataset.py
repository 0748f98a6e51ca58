"""``PyDataset``: a Python dataset of batches, read in parallel by threads or processes."""

from __future__ import annotations

from typing import Any


class PyDataset:
    """Base class for datasets of batches written in Python, as Keras's ``PyDataset``.

    Subclass it, call ``super().__init__(**kwargs)`` in ``__init__``, and
    implement ``__getitem__(index)`` returning the batch at ``index``
    (``x``, ``(x, y)`` or ``(x, y, sample_weight)``) and ``__len__`` returning
    the number of batches. A dataset without ``__len__`` (or whose
    ``num_batches`` is None) is infinite: give ``fit`` a ``steps_per_epoch``.

    Args:
        workers: how many threads (or processes) read batches in parallel;
            1 (or 0) reads them on the calling thread.
        use_multiprocessing: read with processes instead of threads. On Linux
            the processes are forked, so the dataset need not be picklable; the
            batches it returns must be.
        max_queue_size: how many batches may be read ahead of the consumer
            (at least ``workers``).

    Example:
        >>> import numpy as np
        >>> class Squares(PyDataset):
        ...     def __init__(self, **kwargs):
        ...         super().__init__(**kwargs)
        ...     def __len__(self):
        ...         return 3
        ...     def __getitem__(self, i):
        ...         x = np.full((2, 1), i, dtype="float32")
        ...         return x, x**2
        >>> len(Squares(workers=2))
        3
    """

    def __init__(
        self, workers: int = 1, use_multiprocessing: bool = False, max_queue_size: int = 10
    ):
        self._workers = _workers_count(workers)
        self._use_multiprocessing = bool(use_multiprocessing)
        self._max_queue_size = _positive("max_queue_size", max_queue_size)

    @property
    def workers(self) -> int:
        return getattr(self, "_workers", 1)

    @workers.setter
    def workers(self, value: int) -> None:
        self._workers = _workers_count(value)

    @property
    def use_multiprocessing(self) -> bool:
        return getattr(self, "_use_multiprocessing", False)

    @use_multiprocessing.setter
    def use_multiprocessing(self, value: bool) -> None:
        self._use_multiprocessing = bool(value)

    @property
    def max_queue_size(self) -> int:
        return getattr(self, "_max_queue_size", 10)

    @max_queue_size.setter
    def max_queue_size(self, value: int) -> None:
        self._max_queue_size = _positive("max_queue_size", value)

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} must implement __getitem__(index) returning a batch."
        )

    @property
    def num_batches(self) -> int | None:
        """The number of batches per epoch (``len(self)``), or None when infinite."""
        if hasattr(self, "__len__"):
            return len(self)
        return None

    def on_epoch_begin(self) -> None:
        """Called when a training epoch starts."""

    def on_epoch_end(self) -> None:
        """Called when a training epoch ends (e.g. to reshuffle)."""


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"`{name}` must be a positive integer. Received: {name}={value!r}.")
    return value


def _workers_count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"`workers` must be a non-negative integer. Received: workers={value!r}.")
    return max(value, 1)
