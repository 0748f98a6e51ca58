"""(x, y, sample_weight) packing, class weights and validation splits agree with Keras 3."""

import os

import numpy as np
import pytest

import mb_data

os.environ.setdefault("KERAS_BACKEND", "numpy")
keras = pytest.importorskip("keras")
from keras.src.trainers.data_adapters import array_slicing, data_adapter_utils  # noqa: E402

CASES = [
    np.zeros(3),
    (np.zeros(3),),
    (np.zeros(3), np.ones(3)),
    [np.zeros(3), np.ones(3)],
    (np.zeros(3), np.ones(3), np.full(3, 2.0)),
    {"a": np.zeros(3)},
]


@pytest.mark.parametrize("data", CASES)
def test_unpack_matches_keras(data):
    ours = mb_data.unpack_x_y_sample_weight(data)
    ref = keras.utils.unpack_x_y_sample_weight(data)
    assert len(ours) == len(ref) == 3
    for a, b in zip(ours, ref, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            assert a is b


@pytest.mark.parametrize(
    "args", [(1,), ((1, 2),), ([1, 2],), (1, 2), (1, 2, 3), ((1,), None, 3), ({"a": 1}, 2)]
)
def test_pack_matches_keras(args):
    assert mb_data.pack_x_y_sample_weight(*args) == keras.utils.pack_x_y_sample_weight(*args)


def test_unpack_rejects_four_elements_and_says_what_it_got():
    with pytest.raises(ValueError, match=r"\(x, y, sample_weight\).*4 elements"):
        mb_data.unpack_x_y_sample_weight((1, 2, 3, 4))


@pytest.mark.parametrize(
    "y",
    [
        np.array([0, 1, 2, 1, 0, 3]),
        np.array([[0], [1], [2], [1], [0], [3]]),
        np.eye(4)[[0, 1, 2, 1, 0, 3]],
        np.array([0.0, 1.0, 2.0, 1.0, 0.0, 3.0]),
    ],
)
def test_class_weight_to_sample_weights_matches_keras(y):
    class_weight = {0: 0.5, 1: 2.0, 2: 3.0}
    ours = mb_data.class_weight_to_sample_weights(y, class_weight)
    ref = data_adapter_utils.class_weight_to_sample_weights(y, class_weight)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=0)


def test_train_validation_split_matches_keras():
    x = np.arange(20.0).reshape(10, 2)
    y = np.arange(10)
    ours = mb_data.train_validation_split((x, y), 0.25)
    ref = array_slicing.train_validation_split((x, y), 0.25)
    for part_ours, part_ref in zip(ours, ref, strict=True):
        for a, b in zip(part_ours, part_ref, strict=True):
            np.testing.assert_array_equal(a, b)


def test_train_validation_split_rejects_non_arrays_and_tiny_data():
    with pytest.raises(ValueError, match=r"only supported for arrays.*generator"):
        mb_data.train_validation_split((np.zeros(4), (i for i in range(3))), 0.5)
    with pytest.raises(ValueError, match="contains 1 samples"):
        mb_data.train_validation_split(np.zeros(1), 0.1)
