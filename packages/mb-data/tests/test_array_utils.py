"""keras.utils' array helpers: one-hot labels, padded sequences, dataset splits."""

import numpy as np
import pytest

from mb_data import pad_sequences, split_dataset, to_categorical


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


def test_split_dataset_keeps_pairs_together():
    x = np.arange(20).reshape(10, 2)
    y = np.arange(10)
    (x_left, y_left), (x_right, y_right) = split_dataset(
        (x, y), left_size=0.7, shuffle=True, seed=1
    )
    assert len(x_left) == 7 and len(x_right) == 3
    np.testing.assert_array_equal(x_left[:, 0] // 2, y_left)
    np.testing.assert_array_equal(np.sort(np.concatenate([y_left, y_right])), y)
    left, right = split_dataset({"a": y}, right_size=2)
    np.testing.assert_array_equal(right["a"], [8, 9])
    np.testing.assert_array_equal(left["a"], np.arange(8))
    with pytest.raises(ValueError, match="same number of samples"):
        split_dataset((x, y[:5]), left_size=0.5)
    with pytest.raises(ValueError, match="exceed"):
        split_dataset(y, left_size=8, right_size=5)
