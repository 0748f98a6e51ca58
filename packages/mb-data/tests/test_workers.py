"""Worker threads of a PyDataset: order, errors, read-ahead bounds, no leaked threads."""

import threading
import time
import traceback

import numpy as np
import pytest

import mb_data
from mb_data import _prefetch, _workers

DEADLINE = 60  # seconds; a pipeline that takes longer is considered hung


def _until(condition, seconds=DEADLINE):
    """Polls `condition` until true; AssertionError after `seconds` (a hang)."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "the worker threads never got there"
        time.sleep(0.001)


def _reader_threads():
    return [t for t in threading.enumerate() if t.name == "mb_data_pydataset"]


def test_batches_come_out_in_order_under_uneven_delays(run_with_deadline):
    def read(i):
        time.sleep(0.001 * ((13 * i) % 7))  # later batches often finish first
        return i

    reader = _workers.ThreadReader(read, range(60), workers=4, depth=6)
    assert run_with_deadline(lambda: list(reader), DEADLINE) == list(range(60))


def test_an_error_surfaces_at_its_batch_with_its_traceback(run_with_deadline):
    def read(i):
        if i == 5:
            raise KeyError(f"bad batch {i}")
        time.sleep(0.002 * (i % 3))
        return i

    reader = _workers.ThreadReader(read, range(20), workers=3, depth=8)
    got = []

    def consume():
        for value in reader:
            got.append(value)

    with pytest.raises(KeyError, match="bad batch 5") as info:
        run_with_deadline(consume, DEADLINE)
    assert got == [0, 1, 2, 3, 4]
    frames = [frame.name for frame in traceback.extract_tb(info.value.__traceback__)]
    assert "read" in frames  # where it was raised, on the worker thread
    assert next(reader, "ended") == "ended"  # the pass does not go on after its error


def test_reads_stop_max_queue_size_ahead_and_resume_as_batches_are_taken():
    reads = []

    def read(i):
        reads.append(i)
        return i

    reader = _workers.ThreadReader(read, range(100), workers=3, depth=8)
    state = reader._state
    _until(lambda: state.sleepers == 3)  # every worker waits for room
    assert sorted(reads) == list(range(8))
    assert [next(reader) for _ in range(20)] == list(range(20))
    _until(lambda: state.sleepers == 3)
    # woken in a batch once about half of the read-ahead is taken, never past 8 ahead
    assert 20 <= len(reads) <= 28
    assert sorted(reads) == list(range(len(reads)))
    reader.close()


def test_ready_batches_are_taken_without_waiting(monkeypatch):
    reader = _workers.ThreadReader(lambda i: i, range(50), workers=2, depth=10)
    _until(lambda: reader._state.sleepers == 2)
    waits = []
    original = _workers.ThreadReader._wait
    monkeypatch.setattr(
        _workers.ThreadReader, "_wait", lambda self, pos: waits.append(pos) or original(self, pos)
    )
    assert [next(reader) for _ in range(10)] == list(range(10))
    assert waits == []  # all ten were read ahead: no sleep, no wake-up
    assert list(reader) == list(range(10, 50))
    reader.close()


def test_an_empty_pass_ends_at_once(run_with_deadline):
    reader = _workers.ThreadReader(lambda i: i, range(0), workers=3, depth=4)
    assert run_with_deadline(lambda: list(reader), DEADLINE) == []


def test_an_abandoned_pass_leaves_no_thread_behind(as_numpy):
    class Slow(mb_data.PyDataset):
        def __len__(self):
            return 1000

        def __getitem__(self, i):
            time.sleep(0.001)
            return np.full((2, 1), float(i), "float32")

    it = mb_data.EpochIterator(Slow(workers=4, max_queue_size=5))
    epoch = it.enumerate_epoch()
    firsts = [float(as_numpy(next(epoch)[2][0])[0, 0]) for _ in range(3)]
    assert firsts == [0.0, 1.0, 2.0]
    epoch.close()  # an epoch stopped early (e.g. by a callback)
    for thread in _reader_threads():
        thread.join(DEADLINE)
    assert _reader_threads() == []
    assert not any(t.name == "mb_data_pydataset" for _, t in _prefetch._LIVE)


def test_dropping_a_reader_lets_its_threads_go():
    reader = _workers.ThreadReader(lambda i: i, iter(int, 1), workers=2, depth=4)  # endless
    assert next(reader) == 0
    threads = reader._state.threads
    del reader
    for thread in threads:
        thread.join(DEADLINE)
    assert not any(thread.is_alive() for thread in threads)


def test_reader_threads_are_stopped_before_the_interpreter_exits():
    reader = _workers.ThreadReader(lambda i: i, iter(int, 1), workers=2, depth=4)  # endless
    assert next(reader) == 0
    threads = reader._state.threads
    _prefetch._stop_all()  # what atexit runs
    assert not any(thread.is_alive() for thread in threads)
    assert not any(t in threads for _, t in _prefetch._LIVE)
