"""Reading batches ahead with threads or processes, in order, without hanging.

Threads (`ThreadReader`): each worker thread claims the next position of the pass,
reads it and leaves the batch in a dict keyed by position; the consumer pops its
next position from that dict, and sleeps only when that batch is not read yet. The
workers stop ``depth`` positions ahead of the consumer and are woken again once it
has taken about half of those, so a pass whose batches are ready costs the consumer
a dict lookup per batch: no future, no queue, no wake-up per batch.

Processes (`ProcessReader`): every batch is a future of a ``concurrent.futures``
process pool, and the consumer waits only on futures it submitted: a worker's
exception is re-raised from ``result()``, and a dead worker process surfaces as
``BrokenProcessPool`` instead of a hang.

Either way a pass ends when its indices run out; an exception raised reading a
batch comes out, with its traceback, where that batch would have; closing the
iterator (end of pass, abandoned pass, error) drops what was read ahead and lets
the workers go without waiting for them.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import multiprocessing
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mb_data import _prefetch

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


class ProcessReader(Iterator[Any]):
    """Yields ``source[i]`` for each ``i`` of ``indices`` in order, read ahead by a pool
    of processes.

    Args:
        source: anything indexable and (off Linux) picklable (a PyDataset).
        indices: the indices to read, in the order to yield them (may be infinite).
        workers: processes reading at once.
        depth: batches read ahead of the consumer (at least ``workers``).
        transform: applied to each batch in the consumer's thread.
    """

    def __init__(
        self,
        source: Any,
        indices: Iterable[int],
        workers: int,
        depth: int,
        transform: Callable[[Any], Any] = lambda batch: batch,
    ):
        self._indices = iter(indices)
        self._depth = max(int(depth), int(workers))
        self._transform = transform
        self._pending: collections.deque[concurrent.futures.Future] = collections.deque()
        self._executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers,
            mp_context=_process_context(),
            initializer=_init_worker,
            initargs=(source,),
        )
        self._closed = False
        self._fill()

    def _fill(self) -> None:
        while len(self._pending) < self._depth:
            index = next(self._indices, None)
            if index is None:
                return
            with warnings.catch_warnings():
                # Forking with an engine loaded makes some engines (jax) warn; the
                # workers only call the dataset's __getitem__.
                warnings.filterwarnings("ignore", message=r".*fork.*", category=RuntimeWarning)
                self._pending.append(self._executor.submit(_read_in_worker, index))

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


class _Pass:
    """What a `ThreadReader`'s worker threads share with it (never the reader itself:
    dropping an abandoned reader closes it). Every field but `results` is read and
    written under `lock`, except where a comment says otherwise."""

    def __init__(self, read: Callable[[int], Any], indices: Iterator[int], depth: int):
        self.read = read
        self.indices = indices
        self.depth = depth
        # the workers sleep once `depth` positions are claimed ahead of the consumer,
        # and are woken when no more than `low` are left
        self.low = depth // 2
        self.lock = threading.Lock()
        self.room = threading.Condition(self.lock)  # the workers wait here for room
        self.ready = threading.Condition(self.lock)  # the consumer waits here for a batch
        self.results: dict[int, tuple[Any, BaseException | None]] = {}
        self.claimed = 0  # positions handed to workers so far
        self.consumed = 0  # positions the consumer has taken (written by it alone)
        self.end: int | None = None  # the number of positions, once the indices ran out
        self.waiting = -1  # the position the consumer sleeps on
        self.sleepers = 0  # workers waiting for room
        self.stop = False
        self.running = 0  # worker threads not finished yet
        self.threads: list[threading.Thread] = []

    def halt(self) -> None:
        """Asks the worker threads to end after the batch they are reading."""
        with self.lock:
            self.stop = True
            self.room.notify_all()


def _read_loop(state: _Pass) -> None:
    lock, results, read = state.lock, state.results, state.read
    try:
        while True:
            with lock:
                while not state.stop and state.claimed - state.consumed >= state.depth:
                    state.sleepers += 1
                    state.room.wait()
                    state.sleepers -= 1
                if state.stop or state.end is not None:
                    return
                position = state.claimed
                try:
                    index = next(state.indices)
                except StopIteration:
                    state.end = position
                    state.ready.notify()
                    state.room.notify_all()
                    return
                except BaseException as error:  # the index iterator failed: the pass ends
                    results[position] = (None, error)
                    state.claimed = state.end = position + 1
                    state.ready.notify()
                    state.room.notify_all()
                    return
                state.claimed = position + 1
            try:
                entry = (read(index), None)
            except BaseException as error:  # raised by the consumer at this position
                entry = (None, error)
            with lock:
                results[position] = entry
                if state.waiting == position:
                    state.ready.notify()
            del entry
    finally:
        with lock:
            state.running -= 1
        # (Registered with the prefetch threads: stopped before the interpreter
        # finalizes, as a thread left in an engine's C++ code can abort it.)
        _prefetch._LIVE.discard((state.halt, threading.current_thread()))


class ThreadReader(Iterator[Any]):
    """Yields ``transform(read(i))`` for each ``i`` of ``indices`` in order, `read` called
    by `workers` threads, at most ``depth`` positions ahead of the consumer.

    Args:
        read: reads the batch at an index (the dataset's ``__getitem__``, followed by
            any pure NumPy work that needs no backend state); runs on the workers.
        indices: the indices to read, in the order to yield them (may be infinite).
        workers: how many threads read at once.
        depth: batches read ahead of the consumer (at least ``workers``).
        transform: applied to each batch in the consumer's thread.

    Example:
        >>> list(ThreadReader(lambda i: i * i, range(5), workers=2, depth=2))
        [0, 1, 4, 9, 16]
    """

    def __init__(
        self,
        read: Callable[[int], Any],
        indices: Iterable[int],
        workers: int,
        depth: int,
        transform: Callable[[Any], Any] | None = None,
    ):
        workers = max(1, int(workers))
        state = _Pass(read, iter(indices), max(int(depth), workers))
        self._state = state
        self._results = state.results
        self._transform = transform
        self._next = 0
        self._starved = False
        self._closed = False
        state.threads = [
            threading.Thread(
                target=_read_loop, args=(state,), name="mb_data_pydataset", daemon=True
            )
            for _ in range(workers)
        ]
        state.running = workers
        for thread in state.threads:
            _prefetch._LIVE.add((state.halt, thread))
            thread.start()

    def __next__(self) -> Any:
        position = self._next
        try:
            value, error = self._results.pop(position)
        except KeyError:
            value, error = self._wait(position)
        self._next = position + 1
        state = self._state
        state.consumed = position + 1
        # Read without the lock: a wake-up missed here is made up by the next one, or
        # by `_wait` before the consumer sleeps.
        if state.sleepers and state.claimed - self._next <= state.low:
            self._wake()
        if error is not None:
            self.close()
            raise error
        if self._transform is None:
            return value
        return self._transform(value)

    def _wake(self) -> None:
        # One worker refills the read-ahead while the batches come faster than the
        # consumer takes them: several would only pass the GIL among themselves while
        # the consumer waits for it. All of them once the consumer had to wait.
        state = self._state
        with state.lock:
            if self._starved:
                self._starved = False
                state.room.notify_all()
            else:
                state.room.notify()

    def _wait(self, position: int) -> tuple[Any, BaseException | None]:
        state = self._state
        with state.lock:
            while position not in state.results:
                if self._closed or (state.end is not None and position >= state.end):
                    break
                if state.sleepers:
                    state.room.notify_all()
                    self._starved = True
                state.waiting = position
                state.ready.wait()
            state.waiting = -1
            entry = state.results.pop(position, None)
        if entry is None:
            self.close()
            raise StopIteration
        return entry

    def close(self) -> None:
        """Drops what was read ahead and lets the workers go after the batch they are
        reading (does not wait for them)."""
        if self._closed:
            return
        self._closed = True
        state = self._state
        with state.lock:
            state.stop = True
            state.results.clear()
            state.room.notify_all()
            state.ready.notify_all()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
