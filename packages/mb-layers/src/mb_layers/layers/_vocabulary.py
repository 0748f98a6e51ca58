"""Vocabularies of the lookup layers: learning one from data, checking a given one.

`TokenCounts` gathers what `adapt` learns (token counts, and document counts
for TF-IDF); `learned_tokens` orders them as Keras does (most frequent first,
ties broken by the larger token); `split_special_tokens` and
`check_vocabulary` apply Keras's rules to a vocabulary given by the user.
"""

import collections

import numpy as np


class TokenCounts:
    """Token and document counts over the batches seen by `adapt`."""

    def __init__(self):
        self.counts = collections.Counter()
        self.document_counts = collections.Counter()
        self.num_documents = 0

    def update(self, documents, with_documents):
        """Counts the tokens of `documents`, a list of 1-D arrays (one per document)."""
        for document in documents:
            values = document.tolist()
            self.counts.update(values)
            if with_documents:
                self.document_counts.update(set(values))
        if with_documents:
            self.num_documents += len(documents)


def learned_tokens(counts, exclude, limit):
    """The tokens of `counts` (minus `exclude`), most frequent first, at most `limit`."""
    items = [(token, count) for token, count in counts.items() if token not in exclude]
    # Keras sorts by (count, token) and reverses: larger tokens win ties.
    items.sort(key=lambda item: (item[1], item[0]), reverse=True)
    if limit is not None:
        items = items[: max(limit, 0)]
    return [token for token, _ in items]


def inverse_document_frequency(document_counts, num_documents):
    """Keras's IDF: ``log(1 + num_documents / (1 + document_count))``."""
    return np.log(1.0 + num_documents / (1.0 + np.asarray(document_counts, "float64")))


def split_special_tokens(vocabulary, special_tokens):
    """``(tokens, found)``: `vocabulary` without its leading special tokens, if it has them."""
    head = list(vocabulary[: len(special_tokens)])
    found = len(vocabulary) >= len(special_tokens) and head == list(special_tokens)
    return (vocabulary[len(special_tokens) :] if found else vocabulary), found


def check_vocabulary(tokens, special_tokens, mask_token, oov_token, invert, layer):
    """Raises ValueError for repeated tokens or special tokens found among `tokens`."""
    values = tokens.tolist()
    repeated = [t for t, n in collections.Counter(values).items() if n > 1]
    if repeated:
        raise ValueError(
            f"{layer}: the vocabulary has repeated tokens {repeated}. Give each token once."
        )
    for name, token, applies in (
        ("mask", mask_token, True),
        ("OOV", oov_token, invert),
    ):
        if applies and token is not None and token in values:
            raise ValueError(
                f"{layer}: found the {name} token {token!r} at position "
                f"{values.index(token)} of the vocabulary. The vocabulary need not hold "
                "the mask and OOV tokens; if it does, put them first, in this order: "
                f"{list(special_tokens)}."
            )


def read_vocabulary_file(path):
    """The lines of a text file (one token per line, trailing empty lines dropped)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    while lines and lines[-1] == "":
        lines.pop()
    return lines
