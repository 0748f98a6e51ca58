"""IMDB movie reviews: 25,000 training and 25,000 test reviews labeled by sentiment.

Each review is a list of word indices, words ranked by frequency in the training set
(index 1 is the most frequent word before ``index_from`` is added).
"""

from __future__ import annotations

import warnings

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._common import (
    KERAS_DATASETS,
    drop_long,
    limit_vocabulary,
    load_word_index,
    shift_and_mark,
)
from mb_data.datasets._safe_load import load_npz

_ORIGIN = KERAS_DATASETS + "imdb.npz"
_FILE_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
_WORD_INDEX_ORIGIN = KERAS_DATASETS + "imdb_word_index.json"
_WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


def load_data(
    path="imdb.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
    **kwargs,
):
    """Loads IMDB, downloading it once into ``~/.keras/datasets/`` (Keras's cache).

    Args:
        path: the file's name in the cache folder.
        num_words: keep only the ``num_words`` most frequent words (others become
            ``oov_char``); None keeps all.
        skip_top: the most frequent ``skip_top`` words also become ``oov_char``.
        maxlen: drop reviews of ``maxlen`` words or more; None keeps all.
        seed: the seed of the shuffle (each split is shuffled).
        start_char: the index marking the start of each review (None: no mark).
        oov_char: the index replacing cut words (None: cut words are removed).
        index_from: the offset added to every word index.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``x`` are object arrays of lists of
        ints, ``y`` int arrays of 0 (negative) and 1 (positive).

    Example:

    ```python
    (x_train, y_train), _ = mb.datasets.imdb.load_data(num_words=10000, maxlen=200)
    ```
    """
    if kwargs:
        # Keras 3 accepts and ignores them (Keras 2's nb_words, ...); say so at least.
        warnings.warn(
            f"imdb.load_data ignores the arguments {sorted(kwargs)} (as Keras 3 does). "
            "Use num_words, skip_top, maxlen, seed, start_char, oov_char, index_from.",
            UserWarning,
            stacklevel=2,
        )
    path = get_file(fname=path, origin=_ORIGIN, file_hash=_FILE_HASH)
    data = load_npz(path)
    rng = np.random.RandomState(seed)
    splits = []
    for x_key, y_key in (("x_train", "y_train"), ("x_test", "y_test")):
        x, labels = data[x_key], data[y_key]
        indices = np.arange(len(x))
        rng.shuffle(indices)
        splits.append((shift_and_mark(x[indices], start_char, index_from), labels[indices]))
    (x_train, labels_train), (x_test, labels_test) = splits
    if maxlen:
        x_train, labels_train = drop_long(maxlen, x_train, labels_train)
        x_test, labels_test = drop_long(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(
                f"No review is shorter than maxlen={maxlen} in one of the splits, so nothing "
                "would be kept. Increase maxlen."
            )
    sequences = limit_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    cut = len(x_train)
    return (
        (np.array(sequences[:cut], dtype="object"), labels[:cut]),
        (np.array(sequences[cut:], dtype="object"), labels[cut:]),
    )


def get_word_index(path="imdb_word_index.json"):
    """The IMDB word index: ``{word: rank}`` (rank 1 = most frequent; add ``index_from``).

    Example:

    ```python
    index = mb.datasets.imdb.get_word_index()
    words = {rank + 3: word for word, rank in index.items()}  # index_from=3
    ```
    """
    return load_word_index(path, _WORD_INDEX_ORIGIN, _WORD_INDEX_HASH)
