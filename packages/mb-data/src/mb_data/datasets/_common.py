"""What several data sets share: the download folder, splits, word-index sequences."""

from __future__ import annotations

import json

import numpy as np

from mb_data._files.get_file import get_file

# Where Keras's data set files live; each module names its files under it.
KERAS_DATASETS = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def check_test_split(test_split: float) -> None:
    if not 0 <= test_split < 1:
        raise ValueError(
            f"test_split must be in [0, 1): the fraction of samples kept for testing. "
            f"Received: test_split={test_split!r}."
        )


def shuffled_split(x: np.ndarray, y: np.ndarray, test_split: float, seed: int):
    """Keras's housing split: shuffle with ``RandomState(seed)``, test samples last."""
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))


def shift_and_mark(sequences, start_char, index_from):
    """Each word index moved up by ``index_from``, ``start_char`` in front (if not None)."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in seq] for seq in sequences]
    if index_from:
        return [[w + index_from for w in seq] for seq in sequences]
    return [list(seq) for seq in sequences]


def drop_long(maxlen, sequences, labels):
    """Only the sequences shorter than ``maxlen`` (strictly), with their labels."""
    kept = [(seq, label) for seq, label in zip(sequences, labels, strict=True) if len(seq) < maxlen]
    return [seq for seq, _ in kept], [label for _, label in kept]


def limit_vocabulary(sequences, num_words, skip_top, oov_char):
    """Words outside ``[skip_top, num_words)`` become ``oov_char`` (or go, if it is None)."""
    if not num_words:
        num_words = max(max(seq) for seq in sequences)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in seq] for seq in sequences]
    return [[w for w in seq if skip_top <= w < num_words] for seq in sequences]


def load_word_index(fname: str, origin: str, file_hash: str) -> dict[str, int]:
    path = get_file(fname=fname, origin=origin, file_hash=file_hash)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
