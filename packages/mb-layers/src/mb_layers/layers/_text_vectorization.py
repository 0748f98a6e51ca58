"""`TextVectorization`: strings to token indices or bag-of-words vectors, without TensorFlow.

Text is standardized, split and turned into n-grams on the host as Keras 3 does
with ``tf.strings`` (ASCII lowercasing, ASCII whitespace, the same punctuation
set), then looked up by a `StringLookup` whose mask token ``""`` pads rows.
"""

import re

import numpy as np

from mb_graph import KerasTensor
from mb_graph._operation import default
from mb_layers.layers._host_data import adapt_from, as_text, to_host
from mb_layers.layers._lookup import StringLookup
from mb_layers.layers._preprocessing import _Preprocessing
from mb_ops import config

_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")
_PUNCTUATION = re.compile(r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']')
_ASCII_WHITESPACE = re.compile(r"[ \t\n\v\f\r]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _check_option(name, value, allowed):
    if value is None or callable(value) or value in allowed:
        return
    raise ValueError(
        f"TextVectorization `{name}` must be None, a callable or one of {allowed}. "
        f"Received: {name}={value!r}."
    )


def _ngrams(tokens, widths):
    out = []
    for width in widths:
        out.extend(" ".join(tokens[i : i + width]) for i in range(len(tokens) - width + 1))
    return out


class TextVectorization(_Preprocessing):
    """Maps text to sequences of token indices, or to multi-hot/count/TF-IDF vectors.

    Args:
        max_tokens: the largest vocabulary (the padding and OOV indices included).
        standardize: ``"lower_and_strip_punctuation"``, ``"lower"``,
            ``"strip_punctuation"``, None, or a callable on a NumPy array of str.
        split: ``"whitespace"``, ``"character"``, None (each string is a token)
            or a callable from a 1-D array of str to a list of token lists.
        ngrams: None, an int (all n-grams up to it) or a tuple of widths.
        output_mode: ``"int"``, ``"multi_hot"``, ``"count"``, ``"tf_idf"`` or ``"one_hot"``.
        output_sequence_length: pad or truncate ``"int"`` outputs to this length.
        pad_to_max_tokens: encode over `max_tokens` entries.
        vocabulary, idf_weights: a fixed vocabulary (and TF-IDF weights).
        sparse, ragged: must be False.
        encoding: the encoding of ``bytes`` inputs.

    Example:
        >>> from mb_ops import ops
        >>> layer = TextVectorization(output_sequence_length=4)
        >>> layer.adapt(["The cat sat.", "The dog!"])
        >>> layer.get_vocabulary()
        ['', '[UNK]', 'the', 'sat', 'dog', 'cat']
        >>> ops.convert_to_numpy(layer(["the cat", "a dog sat"])).tolist()
        [[2, 5, 0, 0], [1, 4, 3, 0]]
    """

    _runs_on_host = True  # strings and hashes: NumPy on the host

    def __init__(
        self,
        max_tokens=None,
        standardize="lower_and_strip_punctuation",
        split="whitespace",
        ngrams=None,
        output_mode="int",
        output_sequence_length=None,
        pad_to_max_tokens=False,
        vocabulary=None,
        idf_weights=None,
        sparse=False,
        ragged=False,
        encoding="utf-8",
        name=None,
        **kwargs,
    ):
        _check_option("standardize", standardize, _STANDARDIZE)
        _check_option("split", split, _SPLIT)
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        if isinstance(ngrams, list):
            ngrams = tuple(ngrams)
        if not (
            ngrams is None
            or (isinstance(ngrams, int) and ngrams > 0)
            or (isinstance(ngrams, tuple) and all(isinstance(n, int) for n in ngrams))
        ):
            raise ValueError(
                "TextVectorization `ngrams` must be None, a positive int or a tuple of ints. "
                f"Received: ngrams={ngrams!r}."
            )
        if output_sequence_length is not None and (
            output_mode != "int" or not isinstance(output_sequence_length, int)
        ):
            raise ValueError(
                "TextVectorization `output_sequence_length` must be an int, and only with "
                f"output_mode='int'. Received: output_sequence_length={output_sequence_length!r}"
                f", output_mode={output_mode!r}."
            )
        if sparse or ragged:
            raise NotImplementedError(
                "TextVectorization(sparse=True) and (ragged=True) are not supported: mb has no "
                "sparse or ragged tensors. Outputs are dense, padded with 0."
            )
        has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(name=name, **kwargs)
        self._standardize = standardize
        self._split = split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._output_mode = output_mode
        self._output_sequence_length = output_sequence_length
        self._ragged = ragged
        self._encoding = encoding
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens,
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens,
            mask_token="",
            output_mode=output_mode,
            encoding=encoding,
            has_input_vocabulary=has_input_vocabulary,
            vocabulary_size=vocabulary_size,
        )

    # ----- text to tokens -----------------------------------------------------------

    def _standardized(self, text):
        if callable(self._standardize):
            return as_text(np.asarray(self._standardize(text)), self._encoding)
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            text = np.vectorize(lambda s: s.translate(_ASCII_LOWER), otypes=[str])(text)
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            text = np.vectorize(lambda s: _PUNCTUATION.sub("", s), otypes=[str])(text)
        return text

    def _split_rows(self, text):
        if self._split is None:
            rows = text.reshape(text.shape[0], -1) if text.ndim else text.reshape(1, 1)
            return [list(row) for row in rows]
        if text.ndim > 1:
            if text.shape[-1] != 1:
                raise ValueError(
                    "TextVectorization splits strings of shape (batch,) or (batch, 1). "
                    f"Received shape {text.shape}."
                )
            text = text.reshape(text.shape[:-1])
        text = text.reshape(-1)
        if self._split == "whitespace":
            return [[t for t in _ASCII_WHITESPACE.split(s) if t] for s in text]
        if self._split == "character":
            return [list(s) for s in text]
        rows = self._split(text)
        return [[str(t) for t in as_text(np.asarray(row), self._encoding)] for row in rows]

    def _tokens(self, host):
        """The token rows (lists of str, n-grams included) of a host batch of text."""
        text = as_text(host, self._encoding)
        rows = self._split_rows(self._standardized(text))
        if self._ngrams is not None:
            rows = [_ngrams(row, self._ngrams) for row in rows]
        return rows

    # ----- vocabulary ---------------------------------------------------------------

    @default  # still the stock build: a first call builds as any layer's
    def build(self, input_shape=None):
        """Marks the layer built (Keras's signature: the shape may be left out)."""
        super().build(input_shape)

    def adapt(self, data, batch_size=None, steps=None):
        """Learns the vocabulary from text: an array or list, or an iterable of batches."""
        if self._lookup_layer._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}': it was given a fixed vocabulary.")
        self.reset_state()
        adapt_from(data, steps, self.update_state)
        self.finalize_state()

    def update_state(self, data):
        """Adds the tokens of one batch of text to the vocabulary counts."""
        host = to_host(data, "TextVectorization")
        documents = [np.asarray(row, dtype=str) for row in self._tokens(host)]
        self._lookup_layer._update_documents(documents)

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def reset_state(self):
        self._lookup_layer.reset_state()

    def save_assets(self, dir_path):
        """Its lookup's vocabulary file (see `StringLookup.save_assets`)."""
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        """Reads the vocabulary file Keras writes for an adapted layer."""
        self._lookup_layer.load_assets(dir_path)

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary (``""`` for padding and ``"[UNK]"`` first unless excluded)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # ----- call ---------------------------------------------------------------------

    def call(self, inputs):
        host = to_host(inputs, "TextVectorization")
        rows = self._tokens(host)
        length = max((len(r) for r in rows), default=0)
        if self._output_sequence_length is not None:
            length = self._output_sequence_length
        padded = np.full((len(rows), max(length, 1)), "", dtype=object)
        for i, row in enumerate(rows):
            row = row[: max(length, 1)]
            padded[i, : len(row)] = row
        out = self._lookup_layer(as_text(padded))
        if length == 0 and self._output_mode == "int":
            out = out[:, :0]
        if host.ndim == 0 and self._split is not None:
            out = out[0]
        return out

    def compute_output_shape(self, input_shape):
        batch = tuple(input_shape)[:1] or (None,)
        if self._output_mode == "int":
            return (*batch, self._output_sequence_length)
        depth = self._lookup_layer._depth()
        if self._output_mode == "one_hot":
            return (*batch, None, depth)
        return (*batch, depth)

    def compute_output_spec(self, inputs):
        dtype = "int64" if self._output_mode == "int" else config.floatx()
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=dtype)

    def get_config(self):
        lookup = self._lookup_layer
        return {
            **super().get_config(),
            "max_tokens": lookup.max_tokens,
            "standardize": self._standardize,
            "split": self._split,
            "ngrams": self._ngrams_arg,
            "output_mode": self._output_mode,
            "output_sequence_length": self._output_sequence_length,
            "pad_to_max_tokens": lookup.pad_to_max_tokens,
            "sparse": lookup.sparse,
            "ragged": self._ragged,
            "vocabulary": lookup.input_vocabulary,
            "idf_weights": lookup.input_idf_weights,
            "encoding": self._encoding,
            # None before a vocabulary is set (Keras writes the special tokens' count,
            # which then stops its own reloaded layer from adapting).
            "vocabulary_size": self.vocabulary_size() if len(lookup._tokens) else None,
        }

    def get_build_config(self):
        return {}

    def save_own_variables(self, store):
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store):
        self._lookup_layer.load_own_variables(store)
