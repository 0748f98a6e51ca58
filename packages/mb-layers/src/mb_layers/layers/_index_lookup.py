"""`IndexLookup`: the vocabulary layer that `StringLookup` and `IntegerLookup` specialize.

Index layout (Keras 3's): the mask token (``output_mode="int"`` only) at 0, then
`num_oov_indices` OOV indices, then the vocabulary's tokens. Tokens live in a
NumPy array; lookups of strings run on the host, lookups of integers run as
ops on the active backend (so they also work inside a compiled `predict`).
"""

import os

import numpy as np

from mb_graph import KerasTensor
from mb_layers.layers import _vocabulary as vocab_rules
from mb_layers.layers._hashing import _standard_salt, hash_to_bins
from mb_layers.layers._host_data import (
    ENCODED_MODES,
    adapt_from,
    encode_categorical,
    encoded_shape,
    to_host,
)
from mb_layers.layers._preprocessing import _Preprocessing
from mb_ops import config


def _listify(value):
    if value is None:
        return None
    if hasattr(value, "tolist"):
        return value.tolist()
    return [v.item() if isinstance(v, np.generic) else v for v in value]


class IndexLookup(_Preprocessing):
    """Maps tokens to indices (or indices back to tokens with ``invert=True``)."""

    _runs_on_host = True  # strings and hashes: NumPy on the host

    def __init__(
        self,
        max_tokens,
        num_oov_indices,
        mask_token,
        oov_token,
        vocabulary_dtype,
        vocabulary=None,
        idf_weights=None,
        invert=False,
        output_mode="int",
        sparse=False,
        pad_to_max_tokens=False,
        oov_method="floormod",
        name=None,
        salt=None,
        encoding="utf-8",
        **kwargs,
    ):
        layer = type(self).__name__
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        _validate(layer, max_tokens, num_oov_indices, output_mode, invert, sparse, idf_weights)
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"{layer}(pad_to_max_tokens=True) needs `max_tokens`.")
        if oov_method not in ("floormod", "farmhash"):
            raise ValueError(
                f"{layer} oov_method must be 'floormod' or 'farmhash'. "
                f"Received: oov_method={oov_method!r}."
            )
        if salt is not None and vocabulary_dtype != "string" and oov_method != "farmhash":
            raise ValueError(f"{layer}: `salt` needs oov_method='farmhash'.")
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        super().__init__(name=name, **kwargs)
        self.invert = invert
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.output_mode = output_mode
        self.sparse = sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        self.vocabulary_dtype = vocabulary_dtype
        self.encoding = encoding
        self.oov_method = oov_method
        self.salt = _standard_salt(salt)
        self.input_vocabulary = None
        self.input_idf_weights = None
        self._tokens = self._keys(np.asarray([], dtype=object))
        self._idf_weights = None
        self._counts = vocab_rules.TokenCounts()
        if output_mode == "tf_idf" and self._has_input_vocabulary and idf_weights is None:
            raise ValueError(
                f"{layer}: with output_mode='tf_idf' and a `vocabulary`, give `idf_weights` too."
            )
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # ----- the index layout ---------------------------------------------------------

    def _oov_start_index(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def _special_tokens(self):
        return [self.mask_token] * self._oov_start_index() + [self.oov_token] * (
            self.num_oov_indices
        )

    def _keys(self, array):
        """Host values as this layer's keys (str, or int64). Subclasses override it."""
        raise NotImplementedError

    def vocabulary_size(self):
        """The number of indices: special tokens plus vocabulary tokens."""
        return self._token_start_index() + len(self._tokens)

    def get_vocabulary(self, include_special_tokens=True):
        """The token of every index (special tokens first unless excluded)."""
        tokens = self._tokens.tolist()
        if not include_special_tokens:
            return tokens
        special = [self.oov_token] * self._token_start_index()
        if self.mask_token is not None and self.output_mode == "int":
            special[0] = self.mask_token
        return special + tokens

    # ----- setting and learning the vocabulary --------------------------------------

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Sets the vocabulary (a list, an array or a text file path) and TF-IDF weights."""
        layer = type(self).__name__
        if self.output_mode == "tf_idf" and idf_weights is None:
            raise ValueError(f"{layer}: `idf_weights` must be set when output_mode='tf_idf'.")
        if self.output_mode != "tf_idf" and idf_weights is not None:
            raise ValueError(
                f"{layer}: `idf_weights` are only for output_mode='tf_idf'. "
                f"Received: output_mode={self.output_mode!r}."
            )
        if isinstance(vocabulary, str):
            vocabulary = vocab_rules.read_vocabulary_file(vocabulary)
        given = self._keys(to_host(vocabulary, layer).ravel())
        if given.size == 0:
            raise ValueError(f"{layer}: cannot set an empty vocabulary.")
        special = self._special_tokens()
        tokens, found_special = vocab_rules.split_special_tokens(given, special)
        vocab_rules.check_vocabulary(
            tokens, special, self.mask_token, self.oov_token, self.invert, layer
        )
        size = self._token_start_index() + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError(
                f"{layer}: the vocabulary has {size} indices (special tokens included), more "
                f"than max_tokens={self.max_tokens}."
            )
        weights = None
        if idf_weights is not None:
            weights = np.asarray(to_host(idf_weights, layer), "float64")
            if weights.ndim != 1 or len(weights) != len(given):
                raise ValueError(
                    f"{layer}: `idf_weights` must be 1-D with one weight per vocabulary entry "
                    f"({len(given)}). Received shape {weights.shape}."
                )
            front = 0 if found_special else self._token_start_index()
            weights = np.concatenate([np.full(front, weights.mean()), weights])
        self._set_tokens(tokens, weights)
        self.input_vocabulary = _listify(given)
        self.input_idf_weights = _listify(idf_weights)

    def _set_tokens(self, tokens, weights):
        self._tokens = tokens
        order = np.argsort(tokens, kind="stable")
        self._sorted_tokens = tokens[order]
        self._sorted_indices = (order + self._token_start_index()).astype("int64")
        if weights is not None and self.pad_to_max_tokens:
            weights = np.pad(weights, (0, self.max_tokens - len(weights)))
        self._idf_weights = None if weights is None else weights.astype("float32")
        self._check_vocab_size_unchanged()
        self._frozen_vocab_size = self.vocabulary_size()

    def _check_vocab_size_unchanged(self):
        if self.output_mode == "int" or self.pad_to_max_tokens:
            return
        frozen = self._frozen_vocab_size
        if getattr(self, "_called", False) and frozen != self.vocabulary_size():
            raise RuntimeError(
                f"{type(self).__name__}: with output_mode={self.output_mode!r} and "
                "pad_to_max_tokens=False the vocabulary size cannot change after the layer "
                f"was called (it was {frozen}, now {self.vocabulary_size()})."
            )

    def _documents(self, data):
        """A batch of `adapt` data as a list of 1-D key arrays (one per document)."""
        array = self._keys(to_host(data, type(self).__name__))
        if array.ndim == 0:
            array = array.reshape(1)
        if array.ndim == 1:
            return [array]
        return list(array.reshape(array.shape[0], -1))

    def adapt(self, data, steps=None):
        """Learns the vocabulary (and TF-IDF weights) from `data`.

        Args:
            data: an array or list (one batch; a 1-D array holds one token per
                document), or an iterable of batches.
            steps: the number of batches to read from an iterable.
        """
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}': it was given a fixed vocabulary.")
        self._counts = vocab_rules.TokenCounts()
        adapt_from(data, steps, self.update_state, self._update_from_array)
        self.finalize_state()

    def _update_from_array(self, data):
        batch = to_host(data, type(self).__name__)
        self.update_state(batch[:, None] if batch.ndim == 1 else batch)

    def update_state(self, data):
        """Adds the tokens of one batch to the counts `finalize_state` turns into a vocabulary."""
        self._update_documents(self._documents(data))

    def _update_documents(self, documents):
        self._counts.update(documents, with_documents=self.output_mode == "tf_idf")

    def finalize_state(self):
        """Sets the vocabulary from the counts gathered since the last `adapt`."""
        counts = self._counts
        if not counts.counts:
            return
        limit = None if not self.max_tokens else self.max_tokens - self._token_start_index()
        exclude = {t for t in (self.mask_token, self.oov_token) if t is not None}
        tokens = vocab_rules.learned_tokens(counts.counts, exclude, limit)
        weights = None
        if self.output_mode == "tf_idf":
            weights = vocab_rules.inverse_document_frequency(
                [counts.document_counts[t] for t in tokens], counts.num_documents
            ).astype("float32")
            self.input_idf_weights = weights.tolist()
            front = np.full(self._token_start_index(), weights.mean() if len(weights) else 0.0)
            weights = np.concatenate([front, weights])
        self._set_tokens(self._keys(np.asarray(tokens, dtype=object)), weights)
        self.input_vocabulary = _listify(self._tokens)
        self._counts = vocab_rules.TokenCounts()

    def reset_state(self):
        """Forgets the counts gathered by `update_state`."""
        self._counts = vocab_rules.TokenCounts()

    # ----- lookups ------------------------------------------------------------------

    def _oov_hash_bins(self, keys):
        """OOV slots (0 .. num_oov_indices - 1) of host keys."""
        if self.vocabulary_dtype != "string" and self.oov_method == "floormod":
            return np.mod(keys, self.num_oov_indices)
        return hash_to_bins(keys, self.num_oov_indices, self.salt)

    def _lookup_host(self, keys):
        """Indices of host `keys` (any shape), with Keras's OOV and mask rules."""
        found = np.zeros(keys.shape, dtype=bool)
        indices = np.full(keys.shape, self._oov_start_index(), dtype="int64")
        if len(self._tokens):
            pos = np.minimum(np.searchsorted(self._sorted_tokens, keys), len(self._tokens) - 1)
            found = self._sorted_tokens[pos] == keys
            indices = np.where(found, self._sorted_indices[pos], indices)
        masked = self._mask_locations(keys)
        if self.num_oov_indices == 0:
            self._refuse_oov(keys[~found & ~masked])
        elif self.num_oov_indices > 1 and not found.all():
            slots = self._oov_hash_bins(keys) + self._oov_start_index()
            indices = np.where(found, indices, slots)
        if self.mask_token is not None:
            indices = np.where(masked, 0 if self.output_mode == "int" else -1, indices)
        return indices

    def _mask_locations(self, keys):
        if self.mask_token is None:
            return np.zeros(keys.shape, dtype=bool)
        return keys == self._keys(np.asarray([self.mask_token], dtype=object))[0]

    def _refuse_oov(self, unknown):
        if unknown.size:
            raise ValueError(
                f"{type(self).__name__} with num_oov_indices=0 received values outside its "
                f"vocabulary: {sorted(set(unknown.ravel().tolist()))[:10]}. Add them to the "
                "vocabulary or set num_oov_indices=1."
            )

    def _invert_host(self, indices):
        """Tokens of host `indices`: the mask at 0 (if any), the OOV token off the vocabulary."""
        table = self._keys(np.asarray(self.get_vocabulary(), dtype=object))
        oov = self._keys(np.asarray([self.oov_token], dtype=object))[0]
        indices = np.asarray(indices).astype("int64")
        if not len(table):
            return np.full(indices.shape, oov)
        valid = (indices >= 0) & (indices < len(table))
        return np.where(valid, table[np.where(valid, indices, 0)], oov)

    def _encode(self, indices):
        """Int-mode indices as they are; the other modes through `encode_categorical`."""
        if self.output_mode == "int":
            return indices
        if not self.pad_to_max_tokens and self._frozen_vocab_size is None:
            raise RuntimeError(
                f"{type(self).__name__} with output_mode={self.output_mode!r} needs its "
                "vocabulary before it is called: pass `vocabulary` or call adapt() first."
            )
        self._called = True
        return encode_categorical(
            indices, self.output_mode, self._depth(), config.floatx(), self._idf_weights
        )

    def _depth(self):
        return self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        return encoded_shape(input_shape, self.output_mode, self._depth())

    def compute_output_spec(self, inputs):
        if self.invert:
            dtype = self.vocabulary_dtype
        else:
            dtype = "int64" if self.output_mode == "int" else config.floatx()
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=dtype)

    # ----- config and weights -------------------------------------------------------

    def get_config(self):
        return {
            **super().get_config(),
            "invert": self.invert,
            "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token,
            "mask_token": self.mask_token,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "vocabulary_dtype": self.vocabulary_dtype,
            "idf_weights": self.input_idf_weights,
            "vocabulary": self.input_vocabulary,
            "vocabulary_size": self._frozen_vocab_size,
            "oov_method": self.oov_method,
            "salt": self.salt,
        }

    def get_build_config(self):
        return {}

    def save_assets(self, dir_path):
        """Writes ``vocabulary.txt`` in `dir_path` as Keras does when the config holds no
        vocabulary (mb's config holds an adapted one, so only a layer never adapted writes
        the file, with its special tokens alone)."""
        if self.input_vocabulary is not None:
            return
        vocabulary = self.get_vocabulary(include_special_tokens=True)
        with open(os.path.join(dir_path, "vocabulary.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(str(token) for token in vocabulary))

    def save_own_variables(self, store):
        if self.output_mode == "tf_idf" and self._idf_weights is not None:
            store["idf_weights"] = self._idf_weights

    def load_own_variables(self, store):
        if self.output_mode == "tf_idf" and "idf_weights" in store:
            self._idf_weights = np.asarray(store["idf_weights"], "float32")

    def load_assets(self, dir_path):
        """Reads the vocabulary that Keras 3 stores as an asset (``vocabulary.txt``, special
        tokens first) for an adapted layer; mb keeps it in the config instead."""
        path = os.path.join(dir_path, "vocabulary.txt")
        if self.input_vocabulary is not None or not os.path.exists(path):
            return
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        special = {str(token) for token in self._special_tokens()}
        if all(line in special for line in lines):
            return  # the special tokens alone (or nothing): a layer never adapted
        values = lines if self.vocabulary_dtype == "string" else [int(v) for v in lines]
        weights = None
        if self.output_mode == "tf_idf" and self._idf_weights is not None:
            weights = self._idf_weights[: len(values)]
        self.set_vocabulary(values, idf_weights=weights)


def _validate(layer, max_tokens, num_oov_indices, output_mode, invert, sparse, idf_weights):
    if max_tokens is not None and max_tokens <= 1:
        raise ValueError(f"{layer} `max_tokens` must be > 1. Received: max_tokens={max_tokens}.")
    if num_oov_indices < 0:
        raise ValueError(f"{layer} `num_oov_indices` must be >= 0. Received: {num_oov_indices}.")
    if output_mode not in ("int", *ENCODED_MODES):
        raise ValueError(
            f"{layer} output_mode must be one of {('int', *ENCODED_MODES)}. "
            f"Received: output_mode={output_mode!r}."
        )
    if invert and output_mode != "int":
        raise ValueError(f"{layer}(invert=True) needs output_mode='int'.")
    if sparse:
        raise NotImplementedError(
            f"{layer}(sparse=True) is not supported: mb has no sparse tensors. Use sparse=False."
        )
    if idf_weights is not None and output_mode != "tf_idf":
        raise ValueError(f"{layer}: `idf_weights` are only for output_mode='tf_idf'.")
