"""Reading batches ahead with a pool of threads or processes, in order, without hanging.

Every batch is a future of a ``concurrent.futures`` executor, and the consumer
waits only on futures it submitted: a pass ends when its indices run out, a
worker's exception is re-raised from ``result()``, and a dead worker process
surfaces as ``BrokenProcessPool`` instead of a hang. Closing the iterator
(end of pass, abandoned pass, error) cancels what is queued and shuts the pool
down without waiting.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import multiprocessing
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

# The dataset a worker process reads from, set by the pool's initializer.
_WORKER_SOURCE: Any = None


def _init_worker(source: Any) -> None:
    global _WORKER_SOURCE
    _WORKER_SOURCE = source


def _read_in_worker(index: int) -> Any:
    return _WORKER_SOURCE[index]


def _process_context() -> multiprocessing.context.BaseContext:
    # fork shares the dataset with the workers without pickling it; elsewhere
    # (macOS, Windows) only spawn is safe, and the dataset must be picklable.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class OrderedPrefetcher(Iterator[Any]):
    """Yields ``source[i]`` for each ``i`` of ``indices`` in order, reading ahead in parallel.

    Args:
        source: anything indexable (a PyDataset).
        indices: the indices to read, in the order to yield them (may be infinite).
        workers: threads or processes reading at once.
        use_multiprocessing: processes instead of threads.
        max_queue_size: batches read ahead of the consumer (at least ``workers``).
        transform: applied to each batch in the consumer's thread.
        prepare: applied to each batch by the worker thread that read it (pure NumPy
            work that needs no backend state: the consumer's thread is spared it);
            with processes, in the consumer's thread before `transform`.
    """

    def __init__(
        self,
        source: Any,
        indices: Iterable[int],
        workers: int,
        use_multiprocessing: bool,
        max_queue_size: int,
        transform: Callable[[Any], Any] = lambda batch: batch,
        prepare: Callable[[Any], Any] | None = None,
    ):
        self._indices = iter(indices)
        self._depth = max(int(max_queue_size), int(workers))
        self._transform = transform
        self._pending: collections.deque[concurrent.futures.Future] = collections.deque()
        self._processes = use_multiprocessing
        if use_multiprocessing:
            self._executor: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers,
                mp_context=_process_context(),
                initializer=_init_worker,
                initargs=(source,),
            )
            self._read = _read_in_worker
            if prepare is not None:
                self._transform = lambda batch: transform(prepare(batch))
        else:
            self._executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=workers, thread_name_prefix="mb_data_pydataset"
            )
            read = source.__getitem__
            self._read = read if prepare is None else lambda i: prepare(read(i))
        self._closed = False
        self._fill()

    def _fill(self) -> None:
        while len(self._pending) < self._depth:
            index = next(self._indices, None)
            if index is None:
                return
            if not self._processes:
                self._pending.append(self._executor.submit(self._read, index))
                continue
            with warnings.catch_warnings():
                # Forking with an engine loaded makes some engines (jax) warn; the
                # workers only call the dataset's __getitem__.
                warnings.filterwarnings("ignore", message=r".*fork.*", category=RuntimeWarning)
                self._pending.append(self._executor.submit(self._read, index))

    def __next__(self) -> Any:
        if self._closed or not self._pending:
            self.close()
            raise StopIteration
        future = self._pending.popleft()
        try:
            batch = future.result()
        except BrokenProcessPool as exc:
            self.close()
            raise RuntimeError(
                "A PyDataset worker process died while reading a batch (killed, or crashed "
                "in native code). Run with use_multiprocessing=False to see the error."
            ) from exc
        except BaseException:
            self.close()
            raise
        self._fill()
        return self._transform(batch)

    def close(self) -> None:
        """Cancels the queued reads and releases the workers (does not wait for them)."""
        if self._closed:
            return
        self._closed = True
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        self._executor.shutdown(wait=False, cancel_futures=True)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
