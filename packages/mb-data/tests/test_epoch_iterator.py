"""EpochIterator: epochs, steps_per_epoch persistence, steps_per_execution chunks, running dry."""

import warnings

import numpy as np
import pytest

import mb_data


def _values(chunks, as_numpy):
    return [float(as_numpy(b)[0]) for _, _, batches in chunks for b in batches]


def test_one_pass_per_epoch_in_chunks_of_steps_per_execution(as_numpy):
    it = mb_data.EpochIterator(np.arange(10.0), batch_size=2, steps_per_execution=3)
    for _ in range(2):
        chunks = list(it.enumerate_epoch())
        assert [(b, e, len(batches)) for b, e, batches in chunks] == [(0, 2, 3), (3, 4, 2)]
        assert _values(chunks, as_numpy) == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert it.num_batches == 5


def test_steps_per_epoch_continues_where_the_last_epoch_stopped(as_numpy):
    it = mb_data.EpochIterator(np.arange(10.0), batch_size=2, steps_per_epoch=3)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a re-iterable input never runs dry
        for _ in range(4):
            chunks = list(it)
            assert [b for b, _, _ in chunks] == [0, 1, 2]
            seen.extend(_values(chunks, as_numpy))
    # 12 steps over 5 batches per pass: the passes follow each other seamlessly.
    assert seen == [0.0, 2.0, 4.0, 6.0, 8.0] * 2 + [0.0, 2.0]


def test_steps_per_execution_chunks_stop_at_steps_per_epoch():
    it = mb_data.EpochIterator(
        np.arange(20.0), batch_size=2, steps_per_epoch=5, steps_per_execution=2
    )
    assert [(b, e, len(x)) for b, e, x in it] == [(0, 1, 2), (2, 3, 2), (4, 4, 1)]


def test_generator_epoch_ends_when_it_runs_dry_and_later_epochs_warn(as_numpy):
    gen = ((np.full(2, float(i)), np.zeros(2)) for i in range(5))
    it = mb_data.EpochIterator(gen)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = list(it)  # unknown length: running out ends the epoch quietly
    assert len(first) == 5 and it.num_batches == 5
    with pytest.warns(mb_data.OutOfDataWarning, match="after 0 of the 5 steps"):
        assert list(it) == []


def test_generator_shorter_than_steps_per_epoch_warns_and_yields_what_it_had():
    gen = (np.full(2, float(i)) for i in range(5))
    it = mb_data.EpochIterator(gen, steps_per_epoch=3, steps_per_execution=2)
    assert [(b, e) for b, e, _ in it] == [(0, 1), (2, 2)]
    with pytest.warns(mb_data.OutOfDataWarning, match="after 2 of the 3 steps"):
        chunks = list(it)
    assert [(b, e, len(x)) for b, e, x in chunks] == [(0, 1, 2)]


def test_on_epoch_hooks_run_once_per_epoch():
    calls = []

    class Recorder(mb_data.ArrayDataAdapter):
        def on_epoch_begin(self):
            calls.append("begin")

        def on_epoch_end(self):
            calls.append("end")

    it = mb_data.EpochIterator(Recorder(np.arange(4.0), batch_size=2))
    for _ in range(2):
        list(it)
    assert calls == ["begin", "end", "begin", "end"]


def test_reset_starts_a_fresh_pass(as_numpy):
    it = mb_data.EpochIterator(np.arange(10.0), batch_size=2, steps_per_epoch=2)
    list(it)
    it.reset()
    assert _values(list(it), as_numpy) == [0.0, 2.0]


@pytest.mark.parametrize("name", ["steps_per_epoch", "steps_per_execution"])
def test_step_counts_must_be_positive(name):
    with pytest.raises(ValueError, match=f"`{name}` must be a positive integer"):
        mb_data.EpochIterator(np.zeros(4), **{name: 0})


@pytest.mark.parametrize("steps", [1, 5, 10])
def test_steps_per_epoch_dividing_the_data_never_warns(steps, as_numpy):
    it = mb_data.EpochIterator(np.arange(10.0), batch_size=2, steps_per_epoch=steps)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seen = [v for _ in range(4) for v in _values(list(it), as_numpy)]
    assert seen == ([0.0, 2.0, 4.0, 6.0, 8.0] * 8)[: 4 * steps]


def test_a_failed_pass_is_not_resumed(as_numpy):
    class Flaky(mb_data.PyDataset):
        def __init__(self):
            super().__init__()
            self.fail = True

        def __len__(self):
            return 3

        def __getitem__(self, i):
            if i == 1 and self.fail:
                self.fail = False
                raise OSError("disk hiccup")
            return np.full((1,), float(i))

    it = mb_data.EpochIterator(Flaky(), steps_per_epoch=3)
    with pytest.raises(OSError, match="disk hiccup"):
        list(it)
    assert _values(list(it), as_numpy) == [0.0, 1.0, 2.0]


# ----- host_arrays: batches for a compiled step that places NumPy arguments itself ---


def _epoch_batches(it):
    return [batch for _, _, batches in it for batch in batches]


def test_host_arrays_yield_the_same_numpy_batches_as_the_default_tensors(as_numpy):
    rng = np.random.default_rng(0)
    x = {"a": rng.random((10, 3), dtype="float32"), "b": np.arange(10)}
    y, weights = rng.random(10), rng.random(10)
    args = dict(batch_size=4, shuffle=False, steps_per_execution=2, prefetch=False)
    host = _epoch_batches(mb_data.EpochIterator(x, y, weights, host_arrays=True, **args))
    tensors = _epoch_batches(mb_data.EpochIterator(x, y, weights, **args))
    assert [len(b[0]["a"]) for b in host] == [4, 4, 2]  # the last batch is partial
    for got, want in zip(host, tensors, strict=True):
        leaves = [got[0]["a"], got[0]["b"], got[1], got[2]]
        assert all(type(leaf) is np.ndarray for leaf in leaves)
        expected = as_numpy(want)
        np.testing.assert_array_equal(got[0]["a"], expected[0]["a"])
        np.testing.assert_array_equal(got[0]["b"], expected[0]["b"])
        # float64 targets and weights are fed at floatx, as the tensors are
        np.testing.assert_array_equal(got[1], expected[1])
        np.testing.assert_array_equal(got[2], expected[2])
        assert got[1].dtype == expected[1].dtype == np.float32
        np.testing.assert_array_equal(as_numpy(mb_data.EpochIterator.place(got)[2]), got[2])


def test_host_arrays_from_a_generator_are_copies_of_its_buffer():
    # A generator writing each batch into one buffer: with the steps dispatched
    # asynchronously, a batch handed over must not change when the next one is written.
    buffer = np.zeros((2, 3), "float32")

    def batches():
        for i in range(4):
            buffer[:] = i
            yield buffer, np.full(2, i)

    it = mb_data.EpochIterator(batches(), host_arrays=True, prefetch=False)
    got = _epoch_batches(it)
    assert [float(x[0, 0]) for x, _ in got] == [0.0, 1.0, 2.0, 3.0]
    assert all(type(x) is np.ndarray and x is not buffer for x, _ in got)


def test_host_arrays_still_refuse_python_objects():
    batches = iter([(np.array([1, "a"], dtype=object), np.zeros(2))])
    it = mb_data.EpochIterator(batches, host_arrays=True, prefetch=False)
    with pytest.raises(TypeError, match=r"The input x is an array of Python objects"):
        list(it)
