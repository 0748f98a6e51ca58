"""What the per-pass batch conversion hands a step: the same values, dtypes and shapes
as the source, no extra copy where it says so, and the first batch's checks not redone."""

import numpy as np
import pytest

import mb_data
from mb_data import _text
from mb_ops import backends

X = np.arange(40, dtype="float32").reshape(10, 4)
Y = np.arange(10, dtype="int64")


def _tf_dataset():
    tf = pytest.importorskip("tensorflow")
    return tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)


def _torch_loader():
    torch = pytest.importorskip("torch")
    data = torch.utils.data.TensorDataset(torch.from_numpy(X), torch.from_numpy(Y))
    return torch.utils.data.DataLoader(data, batch_size=4)


class _Batches(mb_data.PyDataset):
    def __init__(self, workers):
        super().__init__(workers=workers)

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return X[4 * i : 4 * i + 4], Y[4 * i : 4 * i + 4]


SOURCES = {
    "tf.data": _tf_dataset,
    "torch": _torch_loader,
    "pydataset": lambda: _Batches(workers=1),
    "pydataset-threads": lambda: _Batches(workers=2),
    "generator": lambda: ((X[i : i + 4], Y[i : i + 4]) for i in range(0, 10, 4)),
}


def _batches(source, **kwargs):
    it = mb_data.EpochIterator(source, prefetch=False, **kwargs)
    return [batch for _, _, chunk in it for batch in chunk]


@pytest.mark.parametrize("host_arrays", [False, True])
@pytest.mark.parametrize("name", list(SOURCES))
def test_every_source_delivers_its_numbers_dtypes_and_shapes(name, host_arrays, as_numpy):
    batches = _batches(SOURCES[name](), host_arrays=host_arrays)
    assert [tuple(as_numpy(b[0]).shape) for b in batches] == [(4, 4), (4, 4), (2, 4)]
    for batch, start in zip(batches, (0, 4, 8), strict=True):
        x, y = as_numpy(batch)
        np.testing.assert_array_equal(x, X[start : start + 4])
        np.testing.assert_array_equal(y, Y[start : start + 4])
        assert x.dtype == np.float32
        # host arrays keep their dtype; placed, they get the one the source gets
        placed = as_numpy(mb_data.EpochIterator.place(batch))
        assert placed[1].dtype == as_numpy(mb_data.EpochIterator.place(Y[:1])).dtype


@pytest.mark.parametrize("name", ["tf.data", "torch"])
def test_host_arrays_view_a_pipelines_cpu_tensors_without_copying(name):
    # tf.data tensors are immutable and a DataLoader collates new tensors per batch:
    # the step reads their memory itself (a NumPy view), unless they are the backend's
    # own tensors, which are handed over as they are.
    is_own = backends.backend_module("core").is_tensor
    for x, y in _batches(SOURCES[name](), host_arrays=True):
        for leaf in (x, y):
            if not is_own(leaf):
                assert type(leaf) is np.ndarray
                assert not leaf.flags.owndata  # a view of the pipeline's tensor


def test_host_arrays_copy_tensors_a_generator_may_write_again():
    torch = pytest.importorskip("torch")
    buffer = torch.zeros((2, 3))

    def batches():
        for i in range(3):
            buffer[:] = i
            yield buffer, torch.full((2,), i)

    got = _batches(batches(), host_arrays=True)
    if backends.backend_module("core").is_tensor(buffer):
        # the backend's own tensors are handed over as they are, host_arrays or not
        assert all(x is buffer for x, _ in got)
    else:
        assert [float(x[0, 0]) for x, _ in got] == [0.0, 1.0, 2.0]


def test_pydataset_threads_hand_over_private_copies():
    got = _batches(_Batches(workers=2), host_arrays=True)
    for x, _ in got:
        if type(x) is np.ndarray:
            assert not np.shares_memory(x, X)


@pytest.mark.parametrize("host_arrays", [False, True])
def test_leaf_checks_run_once_per_kind_of_batch(monkeypatch, host_arrays):
    # The fast path: the text check (and the choice of conversion) is made for the
    # first batch of each kind of leaves, not for every batch.
    calls = []
    original = _text.is_numeric
    monkeypatch.setattr(_text, "is_numeric", lambda leaf: calls.append(1) or original(leaf))
    x = np.zeros((12, 2), "float32")
    source = ((x[i : i + 2], Y[i : i + 2]) for i in range(0, 12, 2))
    assert len(_batches(source, host_arrays=host_arrays)) == 6
    assert len(calls) == 2  # two leaves, looked at once


def test_a_new_kind_of_batch_is_still_checked():
    batches = iter([(X[:2], Y[:2]), (np.array([1, "a"], dtype=object), Y[:2])])
    with pytest.raises(TypeError, match=r"The input x is an array of Python objects"):
        _batches(batches, host_arrays=True)


def test_a_compiled_step_fed_host_arrays_traces_once_per_batch_shape():
    if not backends.lookup("training", "JIT_PLACES_HOST_ARRAYS"):
        pytest.skip("this backend's compiled steps take tensors: no host arrays are fed")
    traces = []

    def step(x, y):
        traces.append(tuple(x.shape))
        return x.sum() + y.sum()

    compiled = backends.lookup("training", "jit")(step)
    # views of tf.data and torch tensors and copies of NumPy arrays all match the
    # two traces: one per batch shape, over two epochs of every source
    for name, engine in (("pydataset", "numpy"), ("tf.data", "tensorflow"), ("torch", "torch")):
        pytest.importorskip(engine)
        for _ in range(2):
            for x, y in _batches(SOURCES[name](), host_arrays=True):
                compiled(x, y)
        assert traces == [(4, 4), (2, 4)], name
