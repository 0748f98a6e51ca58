"""timeseries_dataset_from_array against Keras 3.15 (subprocess) and NumPy windows."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mb_data
from mb_ops import testing

DATA = np.arange(60 * 2, dtype="float32").reshape(60, 2)
TARGETS = np.arange(60, dtype="int64") * 10
CASES = [
    {"sequence_length": 5, "batch_size": 4},
    {"sequence_length": 4, "sequence_stride": 3, "sampling_rate": 2, "batch_size": 5,
     "shuffle": True, "seed": 4, "start_index": 3, "end_index": 50},
    {"sequence_length": 6, "batch_size": None, "shuffle": True, "seed": 9, "no_targets": True},
]  # fmt: skip

_KERAS = """
import pickle, sys
import numpy as np
import keras
data, targets = np.load(sys.argv[1]), np.load(sys.argv[2])
cases, out = eval(sys.argv[3]), sys.argv[4]
results = []
for case in cases:
    case = dict(case)
    t = None if case.pop("no_targets", False) else targets
    per_format = {}
    for fmt in ("tf", "grain"):
        ds = keras.utils.timeseries_dataset_from_array(data, t, format=fmt, **case)
        per_format[fmt] = [keras.tree.map_structure(np.asarray, b) for b in ds]
    results.append(per_format)
with open(out, "wb") as f:
    pickle.dump(results, f)
"""


@pytest.fixture(scope="module", name="keras_windows")
def _keras_windows(tmp_path_factory):
    folder = tmp_path_factory.mktemp("series")
    np.save(folder / "d.npy", DATA)
    np.save(folder / "t.npy", TARGETS)
    testing.run_keras(
        _KERAS, str(folder / "d.npy"), str(folder / "t.npy"), repr(CASES), str(folder / "k.pkl"),
        backend="numpy",
    )  # fmt: skip
    with open(folder / "k.pkl", "rb") as f:
        return pickle.load(f)


def _batches(case, format):
    case = dict(case)
    targets = None if case.pop("no_targets", False) else TARGETS
    ds = mb_data.timeseries_dataset_from_array(DATA, targets, format=format, **case)
    out = []
    for batch in ds:
        out.append(
            tuple(np.asarray(v) for v in batch) if isinstance(batch, tuple) else np.asarray(batch)
        )
    return out


def _same(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        a, b = (a if isinstance(a, tuple) else (a,)), (b if isinstance(b, tuple) else (b,))
        for x, y in zip(a, b, strict=True):
            assert x.shape == y.shape and x.dtype == y.dtype, (x.shape, x.dtype, y.shape, y.dtype)
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("format", ["tf", "grain"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_windows_equal_keras_in_the_same_order(keras_windows, case, format):
    _same(_batches(CASES[case], format), keras_windows[case][format])


@pytest.mark.parametrize("case", range(len(CASES)))
def test_pydataset_windows_match_numpy(case):
    kwargs = dict(CASES[case])
    no_targets = kwargs.pop("no_targets", False)
    length, stride = kwargs["sequence_length"], kwargs.get("sequence_stride", 1)
    rate, start = kwargs.get("sampling_rate", 1), kwargs.get("start_index") or 0
    end = kwargs.get("end_index") or len(DATA)
    expected = {}
    for s in range(start, end - (length - 1) * rate, stride):
        expected[s] = DATA[s : s + length * rate : rate]
    ours = _batches(CASES[case], "pydataset")
    windows, targets = [], []
    for batch in ours:
        x = batch[0] if isinstance(batch, tuple) else batch
        x = x[None] if kwargs["batch_size"] is None else x
        windows += list(x)
        if not no_targets:
            targets += list(np.atleast_1d(batch[1]))
    assert len(windows) == len(expected)
    by_start = {int(w[0, 0]) // 2: w for w in windows}
    assert sorted(by_start) == sorted(expected)
    for s, w in by_start.items():
        np.testing.assert_array_equal(w, expected[s])
    if not no_targets:
        assert sorted(targets) == sorted(TARGETS[s] for s in expected)
        assert [int(t) // 10 for t in targets] == [int(w[0, 0]) // 2 for w in windows]


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="sampling_rate must be in"):
        mb_data.timeseries_dataset_from_array(DATA, None, 3, sampling_rate=0)
    with pytest.raises(ValueError, match="end_index must be greater than start_index"):
        mb_data.timeseries_dataset_from_array(DATA, None, 3, start_index=10, end_index=5)
    with pytest.raises(ValueError, match="format must be one of"):
        mb_data.timeseries_dataset_from_array(DATA, None, 3, format="numpy")
