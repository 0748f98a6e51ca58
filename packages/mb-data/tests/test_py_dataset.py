"""PyDataset: parallel reading with threads or processes never hangs and never loses errors."""

import os
import time

import numpy as np
import pytest

import mb_data

DEADLINE = 60  # seconds; a pipeline that takes longer is considered hung


class Batches(mb_data.PyDataset):
    """Batch i is (x filled with i, y = 2 * x); reads take a little time, out of order."""

    def __init__(self, n=7, fail_at=None, die_at=None, **kwargs):
        super().__init__(**kwargs)
        self.n, self.fail_at, self.die_at = n, fail_at, die_at

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.fail_at:
            raise KeyError(f"bad batch {i}")
        if i == self.die_at:
            os._exit(3)
        time.sleep(0.002 * ((7 * i) % 5))
        x = np.full((2, 3), float(i), dtype="float32")
        return x, 2 * x


class Endless(mb_data.PyDataset):
    @property
    def num_batches(self):
        return None

    def __getitem__(self, i):
        return np.full((1,), float(i), dtype="float32")


PARALLEL = [
    pytest.param({"workers": 1}, id="main-thread"),
    pytest.param({"workers": 3}, id="threads"),
    pytest.param({"workers": 2, "use_multiprocessing": True}, id="processes"),
]


def _first_values(it, as_numpy, epochs):
    out = []
    for _ in range(epochs):
        out.append([float(as_numpy(b)[0][0, 0]) for _, _, bs in it for b in bs])
    return out


@pytest.mark.parametrize("options", PARALLEL)
def test_every_epoch_finishes_in_order(options, as_numpy, run_with_deadline):
    it = mb_data.EpochIterator(Batches(max_queue_size=2, **options))
    epochs = run_with_deadline(lambda: _first_values(it, as_numpy, 3), DEADLINE)
    assert epochs == [[float(i) for i in range(7)]] * 3


@pytest.mark.parametrize("options", PARALLEL)
def test_steps_per_epoch_never_runs_out_of_data(options, as_numpy, run_with_deadline):
    it = mb_data.EpochIterator(Batches(n=5, **options), steps_per_epoch=3, steps_per_execution=2)
    epochs = run_with_deadline(lambda: _first_values(it, as_numpy, 4), DEADLINE)
    assert [v for epoch in epochs for v in epoch] == [0.0, 1.0, 2.0, 3.0, 4.0] * 2 + [0.0, 1.0]


@pytest.mark.parametrize("options", PARALLEL)
def test_a_worker_exception_stops_iteration_with_that_exception(options, run_with_deadline):
    it = mb_data.EpochIterator(Batches(fail_at=4, **options))
    with pytest.raises(KeyError, match="bad batch 4"):
        run_with_deadline(lambda: list(it), DEADLINE)


def test_a_dead_worker_process_is_an_error_not_a_hang(run_with_deadline):
    it = mb_data.EpochIterator(Batches(die_at=2, workers=2, use_multiprocessing=True))
    with pytest.raises(RuntimeError, match="worker process died"):
        run_with_deadline(lambda: list(it), DEADLINE)


@pytest.mark.parametrize("options", PARALLEL)
def test_infinite_dataset_with_steps_per_epoch(options, as_numpy, run_with_deadline):
    it = mb_data.EpochIterator(Endless(**options), steps_per_epoch=4)
    epochs = run_with_deadline(
        lambda: [[float(as_numpy(b)[0]) for _, _, bs in it for b in bs] for _ in range(2)],
        DEADLINE,
    )
    assert epochs == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]


def test_shuffle_reorders_batches_each_epoch(as_numpy):
    it = mb_data.EpochIterator(Batches(n=12, workers=2), shuffle=True)
    orders = _first_values(it, as_numpy, 2)
    assert sorted(orders[0]) == sorted(orders[1]) == [float(i) for i in range(12)]
    assert orders[0] != orders[1]


def test_class_weight_adds_sample_weights(as_numpy):
    class Labels(mb_data.PyDataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            return np.zeros((3, 1), "float32"), np.array([0, 1, 2])

    batch = next(iter(mb_data.EpochIterator(Labels(), class_weight={2: 4.0})))[2][0]
    np.testing.assert_allclose(as_numpy(batch[2]), [1.0, 1.0, 4.0])


def test_epoch_hooks_reach_the_dataset():
    calls = []

    class Hooked(Batches):
        def on_epoch_begin(self):
            calls.append("begin")

        def on_epoch_end(self):
            calls.append("end")

    it = mb_data.EpochIterator(Hooked(n=2))
    list(it)
    list(it)
    assert calls == ["begin", "end", "begin", "end"]


def test_options_are_validated_and_default_without_super_init():
    with pytest.raises(ValueError, match="`max_queue_size` must be a positive integer"):
        Batches(max_queue_size=0)

    class NoSuper(mb_data.PyDataset):
        def __init__(self):
            pass

    ds = NoSuper()
    assert (ds.workers, ds.use_multiprocessing, ds.max_queue_size) == (1, False, 10)
