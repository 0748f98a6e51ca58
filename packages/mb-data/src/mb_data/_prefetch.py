"""Batches made on a background thread, a few ahead of the training step.

Handing a batch to an engine costs tens of microseconds on some of them (a host to
device copy on jax, a new eager tensor on TensorFlow), on the order of a small model's
whole step. A `Prefetcher` reads the adapter's iterator on its own thread, so that work
overlaps the step the engine runs meanwhile (as flax's ``prefetch_to_device`` does):
the training loop only takes finished batches off a queue.

The thread places tensors where the thread that started the pass would have: the
backend's optional ``core.placement()`` captures that thread's device scope (engines
keep it per thread). Backends without it, or whose conversion shares host memory, get
no background thread.
"""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

_ITEM, _END, _ERROR = range(3)
_POLL_SECONDS = 0.1  # how often a worker blocked on a full queue checks for close()
_EXIT_WAIT_SECONDS = 5.0  # how long the interpreter's exit waits for each worker

# The workers still running: `_stop_all` ends them before the interpreter exits. A
# daemon thread left inside an engine's C++ code while the interpreter finalizes
# aborts the process ("FATAL: exception not rethrown"), e.g. the prefetcher of an
# epoch iterator kept open across epochs (``steps_per_epoch``) until the end.
# Entries are (stop, thread): `stop()` asks the thread to end (`_workers` registers
# its reader threads here too).
_LIVE: set[tuple[Callable[[], Any], threading.Thread]] = set()


class Prefetcher:
    """Iterates ``source`` on a background thread, up to ``depth`` items ahead.

    Items come out in the source's order; an exception the source raises comes out,
    the same object, where its item would have; ``close()`` (or dropping the
    prefetcher) stops the thread, then closes the source.

    Args:
        source: the iterator to read.
        placement: a zero-argument callable returning the context the thread reads
            the source in (the caller's device scope).
        depth: how many items may wait, made, in the queue.

    Example:
        >>> from contextlib import nullcontext
        >>> list(Prefetcher(iter(range(5)), nullcontext, depth=2))
        [0, 1, 2, 3, 4]
    """

    def __init__(
        self,
        source: Iterator[Any],
        placement: Callable[[], AbstractContextManager[Any]],
        depth: int = 2,
    ):
        self._source = source
        self._queue: queue.Queue[tuple[int, Any]] = queue.Queue(maxsize=max(1, depth))
        self._stop = threading.Event()
        self._done = False
        # The thread holds the queue, the event and the source, never the prefetcher:
        # dropping the prefetcher (an epoch abandoned mid-way) stops it.
        self._thread = threading.Thread(
            target=_produce,
            args=(source, placement, self._queue, self._stop),
            name="mb_data-prefetch",
            daemon=True,
        )
        _LIVE.add((self._stop.set, self._thread))
        self._thread.start()

    def __iter__(self) -> Prefetcher:
        return self

    def __next__(self) -> Any:
        if self._done:
            raise StopIteration
        kind, value = self._queue.get()
        if kind == _ITEM:
            return value
        self._done = True
        self._thread.join()
        if kind == _ERROR:
            raise value
        raise StopIteration

    def close(self) -> None:
        """Stops the thread (after the item it is making) and closes the source."""
        self._done = True
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        close = getattr(self._source, "close", None)
        if close is not None:
            close()

    def __del__(self) -> None:
        self._stop.set()


def _produce(source, placement, out, stop):
    def put(entry):
        while not stop.is_set():
            try:
                out.put(entry, timeout=_POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    try:
        with placement():
            for item in source:
                if not put((_ITEM, item)):
                    return
        put((_END, None))
    except BaseException as error:  # handed to the consumer, raised there
        put((_ERROR, error))
    finally:
        _LIVE.discard((stop.set, threading.current_thread()))


@atexit.register
def _stop_all():
    """Stops every worker still running, before the interpreter finalizes."""
    live = list(_LIVE)
    for stop, _ in live:
        stop()
    for _, thread in live:
        if thread is not threading.current_thread():
            thread.join(timeout=_EXIT_WAIT_SECONDS)
