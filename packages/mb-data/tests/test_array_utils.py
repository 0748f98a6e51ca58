"""keras.utils' array helpers: one-hot labels, padded sequences, normalized rows."""

import importlib.util

import numpy as np
import pytest

from mb_data import normalize, pad_sequences, to_categorical
from mb_ops import ops, testing


def test_to_categorical_matches_an_identity_lookup():
    labels = np.array([[2], [0], [1], [2]])
    out = to_categorical(labels, num_classes=4)
    assert out.shape == (4, 4) and out.dtype == np.float32
    np.testing.assert_array_equal(out, np.eye(4, dtype="float32")[labels[:, 0]])
    assert to_categorical([[0, 1], [1, 1]]).shape == (2, 2, 2)


def test_to_categorical_rejects_labels_outside_the_classes():
    with pytest.raises(ValueError, match="label 5 but num_classes=3"):
        to_categorical([0, 5], num_classes=3)
    with pytest.raises(ValueError, match="integer class labels"):
        to_categorical([0.5, 1.0])


def test_pad_sequences_pads_and_truncates_on_either_side():
    seqs = [[1, 2, 3, 4], [5], []]
    np.testing.assert_array_equal(pad_sequences(seqs, maxlen=3), [[2, 3, 4], [0, 0, 5], [0, 0, 0]])
    np.testing.assert_array_equal(
        pad_sequences(seqs, maxlen=3, padding="post", truncating="post", value=-1),
        [[1, 2, 3], [5, -1, -1], [-1, -1, -1]],
    )
    assert pad_sequences(seqs).shape == (3, 4)
    with pytest.raises(ValueError, match="'pre' or 'post'"):
        pad_sequences(seqs, padding="left")


_PAD_CASES = [
    ({"sequences": [[1, 2, 3, 4], [5], []]}),
    ({"sequences": [[1, 2, 3, 4], [5], []], "maxlen": 2}),
    ({"sequences": [[1, 2, 3, 4], [5], []], "maxlen": 6, "padding": "post"}),
    ({"sequences": [[1, 2, 3, 4], [5, 6]], "maxlen": 3, "truncating": "post"}),
    ({"sequences": [[1, 2, 3, 4], [5, 6]], "maxlen": 3, "padding": "post", "truncating": "post"}),
    ({"sequences": [[0.5, 1.5], [2.25]], "dtype": "float32", "value": -1.5}),
    ({"sequences": [[[1, 2], [3, 4]], [[5, 6]]], "maxlen": 3}),
    ({"sequences": [[1.9, -2.7]], "maxlen": 3}),  # int32: cast like NumPy (toward zero)
    ({"sequences": [["a", "bb"], ["ccc"]], "dtype": "object", "value": "<pad>"}),
    ({"sequences": [np.arange(5), np.arange(2)], "maxlen": 4, "value": 9}),
]

_KERAS_PAD = r"""
import json, sys
import numpy as np
from keras.utils import pad_sequences
cases = json.loads(sys.argv[1])
out = []
for case in cases:
    if case.get("dtype") == "object":
        case["dtype"] = object
    x = pad_sequences(**case)
    out.append({"value": x.tolist(), "dtype": str(x.dtype), "shape": list(x.shape)})
print(json.dumps(out))
"""


def test_pad_sequences_matches_keras():
    import json

    if importlib.util.find_spec("keras") is None:
        pytest.skip("Keras 3 is a test-only dependency")
    plain = [
        {k: [np.asarray(s).tolist() for s in v] if k == "sequences" else v for k, v in c.items()}
        for c in _PAD_CASES
    ]
    theirs = testing.keras_json(_KERAS_PAD, json.dumps(plain), backend="numpy")
    for case, expected in zip(_PAD_CASES, theirs, strict=True):
        kwargs = dict(case)
        if kwargs.get("dtype") == "object":
            kwargs["dtype"] = object
        got = pad_sequences(**kwargs)
        assert list(got.shape) == expected["shape"], case
        assert str(got.dtype) == expected["dtype"], case
        assert got.tolist() == expected["value"], case


def test_pad_sequences_refuses_what_is_not_a_list_of_sequences():
    with pytest.raises(ValueError, match="non-iterable at position 1: 3"):
        pad_sequences([[1, 2], 3])
    with pytest.raises(ValueError, match="must be a list of sequences"):
        pad_sequences(5)


def test_normalize_divides_numpy_rows_by_their_norm():
    x = np.array([[3.0, 4.0], [1.0, -2.0], [0.0, 0.0]])
    expected = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-300)
    out = normalize(x)
    assert isinstance(out, np.ndarray)
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(out[2], [0.0, 0.0])  # a zero row stays zero, no NaN
    l1 = normalize(x, axis=0, order=1)
    np.testing.assert_allclose(l1, x / np.abs(x).sum(axis=0, keepdims=True), rtol=1e-12)


def test_normalize_hands_a_backend_tensor_to_ops_normalize():
    x = np.array([[3.0, 4.0], [6.0, 8.0]], dtype="float32")
    tensor = ops.convert_to_tensor(x)
    out = normalize(tensor)
    assert type(out) is type(tensor)  # a backend tensor in, the same kind out
    np.testing.assert_allclose(ops.convert_to_numpy(out), [[0.6, 0.8], [0.6, 0.8]], rtol=1e-6)
