"""Reuters newswires: 11,228 newswires labeled over 46 topics, as word-index lists."""

from __future__ import annotations

import numpy as np

from mb_data._files.get_file import get_file
from mb_data.datasets._common import (
    KERAS_DATASETS,
    check_test_split,
    drop_long,
    limit_vocabulary,
    load_word_index,
    shift_and_mark,
)
from mb_data.datasets._safe_load import load_npz

_ORIGIN = KERAS_DATASETS + "reuters.npz"
_FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
_WORD_INDEX_ORIGIN = KERAS_DATASETS + "reuters_word_index.json"
_WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"
_LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
    "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass",
    "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum",
    "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
    "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem",
    "dlr", "gas", "silver", "wpi", "hog", "lead",
)  # fmt: skip


def load_data(
    path="reuters.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    test_split=0.2,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
):
    """Loads Reuters, downloading it once into ``~/.keras/datasets/`` (Keras's cache).

    Args:
        path: the file's name in the cache folder.
        num_words: keep only the ``num_words`` most frequent words (others become
            ``oov_char``); None keeps all.
        skip_top: the most frequent ``skip_top`` words also become ``oov_char``.
        maxlen: drop newswires of ``maxlen`` words or more; None keeps all.
        test_split: the fraction of newswires kept for testing (the last ones after
            the shuffle).
        seed: the seed of the shuffle.
        start_char: the index marking the start of each newswire (None: no mark).
        oov_char: the index replacing cut words (None: cut words are removed).
        index_from: the offset added to every word index.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: ``x`` are object arrays of lists of
        ints, ``y`` int arrays of topic indices (see `get_label_names`).

    Example:

    ```python
    (x_train, y_train), _ = mb.datasets.reuters.load_data(num_words=10000)
    ```
    """
    check_test_split(test_split)
    path = get_file(fname=path, origin=_ORIGIN, file_hash=_FILE_HASH)
    data = load_npz(path)
    xs, labels = data["x"], data["y"]
    indices = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(indices)
    xs = shift_and_mark(xs[indices], start_char, index_from)
    labels = labels[indices]
    if maxlen:
        xs, labels = drop_long(maxlen, xs, labels)
    xs = limit_vocabulary(xs, num_words, skip_top, oov_char)
    cut = int(len(xs) * (1 - test_split))
    return (
        (np.array(xs[:cut], dtype="object"), np.array(labels[:cut])),
        (np.array(xs[cut:], dtype="object"), np.array(labels[cut:])),
    )


def get_word_index(path="reuters_word_index.json"):
    """The Reuters word index: ``{word: rank}`` (rank 1 = most frequent; add ``index_from``).

    Example:

    ```python
    index = mb.datasets.reuters.get_word_index()
    ```
    """
    return load_word_index(path, _WORD_INDEX_ORIGIN, _WORD_INDEX_HASH)


def get_label_names():
    """The 46 topic names, indexed by label: ``get_label_names()[3] == "earn"``.

    Example:

    >>> get_label_names()[:3]
    ('cocoa', 'grain', 'veg-oil')
    """
    return _LABEL_NAMES
