"""`FeatureSpace` against Keras 3.15's (run in a subprocess with TensorFlow).

Each case builds the same FeatureSpace in both (features given by name and by
the static constructors, crosses, both output modes), adapts it on the same
data and calls it on the same batch and on one unbatched sample: the output
columns (names, order, shapes) and values must match. The rest checks what a
user sees without Keras: the symbolic inputs/outputs, errors, configs.
"""

import importlib.util
import json
import os
import tempfile

import numpy as np
import pytest

from mb_layers import FeatureSpace, Functional, layers
from mb_ops import testing

_DATA = {
    "f": [0.1, 0.5, 0.9, 1.3, 2.0, -0.4, 0.7, 3.1],
    "r": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
    "n": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
    "d": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
    "s": ["a", "b", "a", "c", "b", "a", "d", "a"],
    "i": [1, 2, 3, 1, 2, 5, 1, 2],
    "h": ["x", "y", "z", "x", "y", "w", "x", "q"],
    "j": [10, 20, 30, 10, 40, 50, 60, 70],
}
_CALL = {
    "f": [0.3, -1.0, 2.5],
    "r": [0.5, 1.5, 9.0],
    "n": [0.5, 3.0, 9.0],
    "d": [-1.0, 3.5, 10.0],
    "s": ["a", "zzz", "c"],  # "zzz" is out of vocabulary
    "i": [2, 99, 5],
    "h": ["x", "new", "q"],
    "j": [10, 11, 70],
}

# Each case: kwargs of FeatureSpace as Python source (run by both frameworks).
_CASES = {
    "concat_by_name": (
        "FeatureSpace(features={'f': 'float', 'r': 'float_rescaled', 'n': 'float_normalized',"
        " 'd': 'float_discretized', 's': 'string_categorical', 'i': 'integer_categorical',"
        " 'h': 'string_hashed', 'j': 'integer_hashed'}, crosses=[('s', 'i'), ('h', 'j')],"
        " crossing_dim=16, hashing_dim=8, num_discretization_bins=4)"
    ),
    "concat_constructors": (
        "FeatureSpace(features={"
        "'r': FeatureSpace.float_rescaled(scale=2.0, offset=-1.0),"
        " 'n': FeatureSpace.float_normalized(),"
        " 'd': FeatureSpace.float_discretized(num_bins=3),"
        " 's': FeatureSpace.string_categorical(max_tokens=4, num_oov_indices=2),"
        " 'i': FeatureSpace.integer_categorical(num_oov_indices=1),"
        " 'h': FeatureSpace.string_hashed(num_bins=5),"
        " 'j': FeatureSpace.integer_hashed(num_bins=6)},"
        " crosses=[FeatureSpace.cross(('s', 'h'), crossing_dim=7)], output_mode='concat')"
    ),
    "dict_int": (
        "FeatureSpace(features={'f': FeatureSpace.float(),"
        " 'd': FeatureSpace.float_discretized(num_bins=3, output_mode='int'),"
        " 's': FeatureSpace.string_categorical(output_mode='int'),"
        " 'i': FeatureSpace.integer_categorical(output_mode='one_hot'),"
        " 'j': FeatureSpace.integer_hashed(num_bins=5, output_mode='int')},"
        " crosses=[FeatureSpace.cross(('s', 'i'), crossing_dim=9, output_mode='int'),"
        " FeatureSpace.cross(('i', 'j'), crossing_dim=4)], output_mode='dict')"
    ),
}

_KERAS_SCRIPT = r"""
import json, sys
import numpy as np
import tensorflow as tf
from keras.utils import FeatureSpace

cases, data, call = json.load(open(sys.argv[1]))
out = {}
for name, source in cases.items():
    fs = eval(source)
    fs.adapt(tf.data.Dataset.from_tensor_slices(data).batch(3))
    # Keras's FeatureSpace refuses keys it has no feature for (mb ignores them).
    batch = fs({k: v for k, v in call.items() if k in fs.features})
    single = fs({k: v[0] for k, v in call.items() if k in fs.features})
    def plain(x):
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items()}
        x = np.asarray(x)
        return {"value": x.tolist(), "dtype": str(x.dtype), "shape": list(x.shape)}
    encoded = fs.get_encoded_features()
    if isinstance(encoded, dict):
        specs = {k: list(v.shape) for k, v in encoded.items()}
    else:
        specs = list(encoded.shape)
    out[name] = {"batch": plain(batch), "single": plain(single), "specs": specs}
print(json.dumps(out))
"""


def _python(source):
    return eval(source, {"FeatureSpace": FeatureSpace})  # the cases above


def _batches(data, size=3):
    n = len(next(iter(data.values())))
    return [{k: np.asarray(v[i : i + size]) for k, v in data.items()} for i in range(0, n, size)]


@pytest.fixture(scope="module")
def keras_results():
    pytest.importorskip("keras")
    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("Keras's FeatureSpace needs TensorFlow, which is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.json")
        with open(path, "w") as f:
            json.dump([_CASES, _DATA, _CALL], f)
        return testing.keras_json(_KERAS_SCRIPT, path, backend="tensorflow")


def _compare(mine, theirs, label):
    if isinstance(theirs, dict) and "value" not in theirs:
        assert isinstance(mine, dict), label
        assert list(mine) == list(theirs), f"{label}: output columns differ"
        for key in theirs:
            _compare(mine[key], theirs[key], f"{label}[{key}]")
        return
    got = np.asarray(mine)
    assert list(got.shape) == theirs["shape"], label
    expected = np.asarray(theirs["value"], dtype=theirs["dtype"])
    assert got.dtype.kind == expected.dtype.kind, f"{label}: {got.dtype} vs {expected.dtype}"
    # Normalization: float32 statistics in both; the tolerance covers summation order.
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=label)


@pytest.mark.parametrize("case", sorted(_CASES))
def test_outputs_match_keras(keras_results, case):
    fs = _python(_CASES[case])
    fs.adapt(_batches(_DATA))
    theirs = keras_results[case]
    _compare(fs(_CALL), theirs["batch"], f"{case} batch")
    _compare(fs({k: v[0] for k, v in _CALL.items()}), theirs["single"], f"{case} single")
    encoded = fs.get_encoded_features()
    if isinstance(encoded, dict):
        assert {k: list(v.shape) for k, v in encoded.items()} == theirs["specs"]
    else:
        assert list(encoded.shape) == theirs["specs"]


def test_adapt_reads_a_dict_of_lists_like_batches_of_32():
    by_dict = _python(_CASES["concat_by_name"])
    by_dict.adapt(_DATA)
    by_batches = _python(_CASES["concat_by_name"])
    by_batches.adapt(_batches(_DATA, size=32))
    np.testing.assert_array_equal(np.asarray(by_dict(_CALL)), np.asarray(by_batches(_CALL)))


def test_adapt_reads_unbatched_elements_and_labeled_pairs():
    rows = [({k: v[i] for k, v in _DATA.items()}, 0) for i in range(len(_DATA["f"]))]
    fs = FeatureSpace({"n": "float_normalized", "s": "string_categorical"})
    fs.adapt(rows)
    values = np.asarray(_DATA["n"], "float32")
    expected = (np.float32(0.3) - values.mean()) / values.std()
    out = np.asarray(fs({"n": [0.3], "s": ["a"]}))
    # Columns: n (1), then s one-hot over [UNK] + vocabulary by frequency (a, b, c, d).
    np.testing.assert_allclose(out[0, 0], expected, rtol=1e-5)
    assert out[0, 1:].tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_functional_model_from_inputs_and_encoded_features():
    fs = FeatureSpace({"n": "float_normalized", "s": "string_categorical"}, output_mode="concat")
    fs.adapt(_DATA)
    inputs = fs.get_inputs()
    assert sorted(inputs) == ["n", "s"]
    assert tuple(inputs["s"].shape) == (None, 1) and inputs["s"].dtype == "string"
    encoded = fs.get_encoded_features()
    assert tuple(encoded.shape) == (None, 6)  # n, then [UNK] a b c d
    model = Functional(inputs, layers.Dense(1, kernel_initializer="ones")(encoded))
    x = {"n": np.array([[1.0]], "float32"), "s": np.array([["b"]])}
    np.testing.assert_allclose(
        np.asarray(model(x)), np.asarray(fs(x)).sum(axis=-1, keepdims=True), rtol=1e-6
    )


def test_features_without_state_need_no_adapt():
    fs = FeatureSpace({"x": "float", "h": FeatureSpace.string_hashed(num_bins=3)})
    out = np.asarray(fs({"x": [1.5, 2.5], "h": ["a", "b"]}))
    assert out.shape == (2, 4)
    np.testing.assert_array_equal(out.sum(axis=1), [1.0 + 1.5, 1.0 + 2.5])


def test_errors_say_what_was_wrong():
    with pytest.raises(ValueError, match="cannot be None or empty"):
        FeatureSpace({})
    with pytest.raises(ValueError, match="Invalid feature type for feature 'x'"):
        FeatureSpace({"x": "floaty"})
    with pytest.raises(ValueError, match="unknown features \\['z'\\]"):
        FeatureSpace({"x": "float"}, crosses=[("x", "z")])
    with pytest.raises(ValueError, match="Expected one of \\{'dict', 'concat'\\}"):
        FeatureSpace({"x": "float"}, output_mode="list")
    fs = FeatureSpace({"n": "float_normalized"})
    with pytest.raises(ValueError, match=r"call `\.adapt\(dataset\)`"):
        fs({"n": [1.0]})
    fs.adapt({"n": [1.0, 2.0]})
    with pytest.raises(ValueError, match="can only be called with a dict"):
        fs([1.0])
    with pytest.raises(ValueError, match="missing from the data"):
        fs({"m": [1.0]})
    ints = FeatureSpace({"s": FeatureSpace.string_categorical(output_mode="int")})
    with pytest.raises(ValueError, match="Consider using `output_mode='dict'`"):
        ints.adapt({"s": ["a"]})


def test_config_round_trip_keeps_the_adapted_state():
    fs = _python(_CASES["dict_int"])
    fs.adapt(_DATA)
    config = json.loads(json.dumps(fs.get_config()))
    assert config["features"]["s"]["class_name"] == "Feature"
    assert config["features"]["s"]["module"] == "keras.src.layers.preprocessing.feature_space"
    assert config["crosses"][0]["config"]["feature_names"] == ["s", "i"]
    back = FeatureSpace.from_config(config)
    back.build_from_config(fs.get_build_config())
    mine, theirs = fs(_CALL), back(_CALL)
    for key in mine:
        np.testing.assert_array_equal(np.asarray(back_value := theirs[key]), np.asarray(mine[key]))
        assert back_value.dtype == mine[key].dtype
