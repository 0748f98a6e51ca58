"""split_dataset against Keras 3.15 (subprocess): the same samples on each side, in order."""

from __future__ import annotations

import importlib.util
import pickle

import numpy as np
import pytest

import mb_data
from mb_ops import config, testing

X = np.arange(40, dtype="float32").reshape(20, 2)
Y = np.arange(20, dtype="int64") * 10
# The array cases name the backend whose parts they compare (by default split_dataset
# follows the active backend, and Keras's torch split of a tuple fails)
NUMPY = {"preferred_backend": "numpy"}
CASES = [
    ("tuple", {"left_size": 0.8, **NUMPY}),
    ("tuple", {"left_size": 0.6, "shuffle": True, "seed": 3, **NUMPY}),
    ("array", {"right_size": 5, "shuffle": True, "seed": 11, **NUMPY}),
    ("array", {"left_size": 7, "right_size": 9, **NUMPY}),
    ("tf_batched", {"left_size": 0.5, "shuffle": True, "seed": 1}),
    ("torch", {"left_size": 0.7, "shuffle": True, "seed": 2, "preferred_backend": "torch"}),
]

_BUILD = """
def build(kind, X, Y):
    if kind == "tuple":
        return (X, Y)
    if kind == "array":
        return X
    if kind == "tf_batched":
        import tensorflow as tf
        return tf.data.Dataset.from_tensor_slices((X, Y)).batch(3)
    return (X, Y)

def dump(part):
    import numpy as np
    if type(part).__name__ == "Subset":
        return {"indices": [int(i) for i in part.indices]}
    if hasattr(part, "element_spec"):
        batches = [tuple(np.asarray(v) for v in b) if isinstance(b, tuple) else np.asarray(b)
                   for b in part]
        return {"batches": batches}
    return {"arrays": part}
"""

_KERAS = (
    _BUILD
    + """
import pickle, sys
import numpy as np
import keras
X, Y, cases = np.load(sys.argv[1]), np.load(sys.argv[2]), eval(sys.argv[3])
out = []
for kind, kwargs in cases:
    left, right = keras.utils.split_dataset(build(kind, X, Y), **kwargs)
    out.append((dump(left), dump(right)))
pickle.dump(out, open(sys.argv[4], "wb"))
"""
)
_NS = {}
exec(_BUILD, _NS)


@pytest.fixture(scope="module", name="keras_splits")
def _keras_splits(tmp_path_factory):
    for module in ("tensorflow", "torch"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: Keras's split needs it")
    folder = tmp_path_factory.mktemp("split")
    np.save(folder / "x.npy", X)
    np.save(folder / "y.npy", Y)
    testing.run_keras(
        _KERAS, str(folder / "x.npy"), str(folder / "y.npy"), repr(CASES), str(folder / "k.pkl"),
        backend="numpy",
    )  # fmt: skip
    with open(folder / "k.pkl", "rb") as f:
        return pickle.load(f)


def _same(ours, theirs):
    assert ours.keys() == theirs.keys()
    if "indices" in theirs:
        assert ours["indices"] == theirs["indices"]
        return
    a, b = ours["batches"], theirs["batches"]
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        x, y = (x if isinstance(x, tuple) else (x,)), (y if isinstance(y, tuple) else (y,))
        for u, v in zip(x, y, strict=True):
            assert u.dtype == v.dtype and u.shape == v.shape
            np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_split_equals_keras(keras_splits, case):
    kind, kwargs = CASES[case]
    left, right = mb_data.split_dataset(_NS["build"](kind, X, Y), **kwargs)
    expected_left, expected_right = keras_splits[case]
    _same(_NS["dump"](left), expected_left)
    _same(_NS["dump"](right), expected_right)


def test_without_tensorflow_the_parts_are_numpy(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "tensorflow" else real(name, *a),
    )
    (x_left, y_left), (x_right, y_right) = mb_data.split_dataset(
        (X, Y), left_size=0.75, shuffle=True, seed=5, **NUMPY
    )
    assert x_left.shape == (15, 2) and x_right.shape == (5, 2)
    np.testing.assert_array_equal(x_left[:, 0] * 5, y_left)  # rows stay paired
    assert sorted(np.concatenate([y_left, y_right]).tolist()) == Y.tolist()
    left, right = mb_data.split_dataset({"a": Y}, right_size=2, **NUMPY)
    np.testing.assert_array_equal(right["a"], [180, 190])
    np.testing.assert_array_equal(left["a"], Y[:18])


def test_arrays_split_into_the_active_backends_parts():
    left, _ = mb_data.split_dataset((X, Y), left_size=0.5)
    torch_parts = type(left).__name__ == "Subset"
    assert torch_parts == (config.backend() == "torch")


def test_bad_sizes_are_clear_errors():
    with pytest.raises(ValueError, match="left_size or right_size"):
        mb_data.split_dataset((X, Y))
    with pytest.raises(ValueError, match="exceed"):
        mb_data.split_dataset(Y, left_size=15, right_size=8)
    with pytest.raises(ValueError, match="fraction in"):
        mb_data.split_dataset(Y, left_size=1.5)
    with pytest.raises(ValueError, match="same number of samples"):
        mb_data.split_dataset((X, Y[:5]), left_size=0.5)
    with pytest.raises(TypeError, match="split_dataset takes"):
        mb_data.split_dataset("not data", left_size=0.5)
