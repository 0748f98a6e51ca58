"""`StringLookup` and `IntegerLookup`: vocabularies of strings or integers, as Keras 3's.

Strings are looked up on the host (NumPy); integers with ops on the active
backend, so an `IntegerLookup` inside a model also runs in a compiled
`predict` on every backend (an OOV hashed with ``oov_method="farmhash"``
needs the host).
"""

import numpy as np

from mb_layers._ops import ops
from mb_layers.layers._host_data import as_text, to_host
from mb_layers.layers._index_lookup import IndexLookup
from mb_ops import dtypes


def _is_host(x):
    return isinstance(x, (np.ndarray, list, tuple, int, np.generic))


class StringLookup(IndexLookup):
    """Maps strings to integer indices from a vocabulary (given, or learned by `adapt`).

    Args:
        max_tokens: the most indices (special tokens included); None for no limit.
        num_oov_indices: indices for out-of-vocabulary strings (hashed among them).
        mask_token: a string mapped to index 0 (in ``"int"`` mode) or dropped.
        oov_token: the string `invert` gives for unknown indices.
        vocabulary: a list or array of strings, or the path of a text file with
            one token per line.
        idf_weights: TF-IDF weights (``output_mode="tf_idf"`` with a vocabulary).
        invert: map indices back to strings.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"``, ``"count"`` or
            ``"tf_idf"``.
        pad_to_max_tokens: encode over `max_tokens` entries, whatever the vocabulary size.
        sparse: must be False.
        encoding: the text encoding of ``bytes`` inputs.
        salt: a SipHash key for hashing OOV strings.

    Example:
        >>> layer = StringLookup(vocabulary=["a", "b", "c"])
        >>> ops.convert_to_numpy(layer([["a", "c"], ["d", "b"]])).tolist()
        [[1, 3], [0, 2]]
        >>> layer.get_vocabulary()
        ['[UNK]', 'a', 'b', 'c']
    """

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token="[UNK]",
        vocabulary=None,
        idf_weights=None,
        invert=False,
        output_mode="int",
        pad_to_max_tokens=False,
        sparse=False,
        encoding="utf-8",
        name=None,
        salt=None,
        **kwargs,
    ):
        super().__init__(
            max_tokens=max_tokens,
            num_oov_indices=num_oov_indices,
            mask_token=mask_token,
            oov_token=oov_token,
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            invert=invert,
            output_mode=output_mode,
            pad_to_max_tokens=pad_to_max_tokens,
            sparse=sparse,
            name=name,
            salt=salt,
            vocabulary_dtype="string",
            encoding=encoding,
            **kwargs,
        )

    def _keys(self, array):
        return as_text(np.asarray(array), self.encoding)

    def call(self, inputs):
        values = to_host(inputs, "StringLookup")
        if self.invert:
            return self._invert_host(values)
        return self._encode(ops.convert_to_tensor(self._lookup_host(self._keys(values))))

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]
        return {**config, "encoding": self.encoding}


class IntegerLookup(IndexLookup):
    """Maps integers to contiguous indices from a vocabulary (given, or learned by `adapt`).

    Args:
        max_tokens: the most indices (special tokens included); None for no limit.
        num_oov_indices: indices for out-of-vocabulary values (``value mod n``, or
            FarmHash with ``oov_method="farmhash"``).
        mask_token: a value mapped to index 0 (in ``"int"`` mode) or dropped.
        oov_token: the value `invert` gives for unknown indices.
        vocabulary: a list or array of integers, or a text file path.
        vocabulary_dtype: ``"int64"``.
        idf_weights: TF-IDF weights (``output_mode="tf_idf"`` with a vocabulary).
        invert: map indices back to values.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"``, ``"count"`` or
            ``"tf_idf"``.
        sparse: must be False.
        pad_to_max_tokens: encode over `max_tokens` entries, whatever the vocabulary size.
        oov_method: ``"floormod"`` or ``"farmhash"``.
        salt: a SipHash key for ``oov_method="farmhash"``.

    Example:
        >>> layer = IntegerLookup(vocabulary=[12, 36, 1138, 42])
        >>> ops.convert_to_numpy(layer(np.array([[12, 1138, 42], [42, 1000, 36]]))).tolist()
        [[1, 3, 4], [4, 0, 2]]
    """

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token=-1,
        vocabulary=None,
        vocabulary_dtype="int64",
        idf_weights=None,
        invert=False,
        output_mode="int",
        sparse=False,
        pad_to_max_tokens=False,
        oov_method="floormod",
        salt=None,
        name=None,
        **kwargs,
    ):
        if vocabulary_dtype != "int64":
            raise ValueError(
                "IntegerLookup supports only vocabulary_dtype='int64'. "
                f"Received: vocabulary_dtype={vocabulary_dtype!r}."
            )
        super().__init__(
            max_tokens=max_tokens,
            num_oov_indices=num_oov_indices,
            mask_token=mask_token,
            oov_token=oov_token,
            vocabulary=vocabulary,
            vocabulary_dtype=vocabulary_dtype,
            idf_weights=idf_weights,
            invert=invert,
            output_mode=output_mode,
            sparse=sparse,
            pad_to_max_tokens=pad_to_max_tokens,
            oov_method=oov_method,
            salt=salt,
            name=name,
            **kwargs,
        )

    def _keys(self, array):
        array = np.asarray(array)
        if array.dtype == object:
            array = np.asarray([int(v) for v in array.ravel()], "int64").reshape(array.shape)
        return array.astype("int64")

    def call(self, inputs):
        if self.invert:
            return self._invert_ops(inputs)
        if self.oov_method == "farmhash" and self.num_oov_indices > 1:
            keys = self._keys(to_host(inputs, "IntegerLookup"))
            return self._encode(ops.convert_to_tensor(self._lookup_host(keys)))
        if self.num_oov_indices == 0 and _is_host(inputs):
            keys = self._keys(np.asarray(inputs))
            self._refuse_oov(keys[~np.isin(keys, self._tokens) & ~self._mask_locations(keys)])
        return self._encode(self._lookup_ops(inputs))

    def _lookup_ops(self, inputs):
        """The lookup as backend ops (traceable): sorted keys, `searchsorted`, `take`."""
        table = ops.convert_to_tensor(self._sorted_tokens)
        key_dtype = dtypes.standardize_dtype(table.dtype)
        x = ops.convert_to_tensor(inputs)
        flat = ops.reshape(ops.cast(x, key_dtype), (-1,))
        oov_start = self._oov_start_index()
        default = oov_start if self.num_oov_indices == 1 else -1
        indices = ops.cast(ops.full_like(flat, default), key_dtype)
        found = ops.zeros_like(flat, dtype="bool")
        if len(self._tokens):
            last = len(self._tokens) - 1
            pos = ops.minimum(ops.searchsorted(table, flat), last)
            found = ops.equal(ops.take(table, pos), flat)
            slots = ops.take(ops.convert_to_tensor(self._sorted_indices), pos)
            indices = ops.where(found, ops.cast(slots, key_dtype), indices)
        if self.num_oov_indices > 1:
            hashed = ops.add(ops.mod(flat, self.num_oov_indices), oov_start)
            indices = ops.where(found, indices, hashed)
        if self.mask_token is not None:
            mask_value = 0 if self.output_mode == "int" else -1
            indices = ops.where(ops.equal(flat, self.mask_token), mask_value, indices)
        return ops.reshape(ops.cast(indices, key_dtype), ops.shape(x))

    def _invert_ops(self, inputs):
        table = ops.convert_to_tensor(self._keys(np.asarray(self.get_vocabulary(), dtype=object)))
        x = ops.convert_to_tensor(inputs)
        key_dtype = dtypes.standardize_dtype(table.dtype)
        if not len(self.get_vocabulary()):
            return ops.cast(ops.full_like(x, self.oov_token), key_dtype)
        x = ops.cast(x, key_dtype)
        valid = ops.logical_and(ops.greater_equal(x, 0), ops.less(x, len(self.get_vocabulary())))
        tokens = ops.take(table, ops.where(valid, x, ops.zeros_like(x)))
        return ops.where(valid, tokens, ops.cast(ops.full_like(x, self.oov_token), key_dtype))

    def get_config(self):
        config = super().get_config()
        for key in ("oov_token", "mask_token"):
            if config[key] is not None:
                config[key] = int(config[key])
        if config["vocabulary"] is not None:
            config["vocabulary"] = [int(v) for v in config["vocabulary"]]
        return config
