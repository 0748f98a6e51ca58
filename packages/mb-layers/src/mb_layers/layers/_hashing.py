"""Hashing layers: `Hashing` (values into bins) and `HashedCrossing` (crosses of features).

The bins are Keras 3's (TensorFlow's) bit for bit: FarmHash ``Fingerprint64``
of the value's bytes (integers as their decimal text), or SipHash-2-4 when a
`salt` is given, modulo the number of bins. The hashing runs on the host in
NumPy, without TensorFlow; outputs are the active backend's tensors.
"""

import numpy as np

from mb_graph import KerasTensor
from mb_graph._operation import default
from mb_layers._ops import ops
from mb_layers.layers._fingerprint import fingerprint64, fingerprint_cat64, siphash64
from mb_layers.layers._host_data import (
    as_bytes_list,
    as_text,
    encode_categorical,
    encoded_shape,
    is_string_array,
    to_host,
)
from mb_layers.layers._preprocessing import _Preprocessing
from mb_ops import config

_HASHING_MODES = ("int", "one_hot", "multi_hot", "count")
_CROSS_KEY = 0xDECAFCAFFE  # the default hash key of tf.sparse.cross_hashed


def _check_mode(layer, output_mode, allowed):
    if output_mode not in allowed:
        raise ValueError(
            f"{layer} output_mode must be one of {allowed}. Received: output_mode={output_mode!r}."
        )


def _check_sparse(layer, sparse):
    if sparse:
        raise NotImplementedError(
            f"{layer}(sparse=True) is not supported: mb has no sparse tensors. Use sparse=False."
        )


def _standard_salt(salt):
    if salt is None:
        return None
    if isinstance(salt, (tuple, list)) and len(salt) == 2:
        return [int(s) for s in salt]
    if isinstance(salt, int) and not isinstance(salt, bool):
        return [salt, salt]
    raise ValueError(
        f"Hashing `salt` must be an integer or a pair of integers. Received: salt={salt!r}."
    )


def hash_to_bins(values, num_bins, salt=None):
    """The bin (0 .. num_bins - 1) of each value of a host array, Keras's assignment."""
    keys = as_bytes_list(values)
    hashes = fingerprint64(keys) if salt is None else siphash64(keys, salt)
    return (hashes % np.uint64(num_bins)).astype("int64").reshape(values.shape)


class Hashing(_Preprocessing):
    """Hashes strings or integers into `num_bins` bins (Keras 3's bins, without TensorFlow).

    Args:
        num_bins: the number of bins, including the mask bin when `mask_value` is set.
        mask_value: a value sent to bin 0 (the others then use bins 1 .. num_bins - 1).
        salt: an int or a pair of ints: SipHash-2-4 with this key instead of FarmHash.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"`` or ``"count"``.
        sparse: must be False.

    Example:
        >>> layer = Hashing(num_bins=3)
        >>> ops.convert_to_numpy(layer([["A"], ["B"], ["C"], ["D"], ["E"]])).ravel().tolist()
        [1, 0, 1, 1, 2]
    """

    _runs_on_host = True  # strings and hashes: NumPy on the host

    def __init__(
        self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs
    ):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else config.floatx()
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(
                f"Hashing `num_bins` must be a positive integer. Received: num_bins={num_bins!r}."
            )
        _check_mode("Hashing", output_mode, _HASHING_MODES)
        if output_mode == "int" and self.compute_dtype not in ("int32", "int64"):
            raise ValueError(
                "Hashing with output_mode='int' needs dtype 'int32' or 'int64'. "
                f"Received: dtype={self.compute_dtype!r}."
            )
        _check_sparse("Hashing", sparse)
        self.num_bins = num_bins
        self.mask_value = mask_value
        self.salt = _standard_salt(salt)
        self.strong_hash = self.salt is not None
        self.output_mode = output_mode
        self.sparse = sparse

    def _bins(self, values):
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            if is_string_array(values):
                mask = as_text(values) == str(self.mask_value)
            else:
                mask = values == self.mask_value
        out = hash_to_bins(values, bins, self.salt)
        if mask is not None:
            out = np.where(mask, 0, out + 1)
        return out

    def call(self, inputs):
        bins = self._bins(to_host(inputs, "Hashing"))
        if self.output_mode == "int":
            # No dtype asked of the engine: int64 where it has it (JAX without x64: int32).
            return ops.convert_to_tensor(bins.astype(self.compute_dtype))
        return encode_categorical(bins, self.output_mode, self.num_bins, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        return encoded_shape(input_shape, self.output_mode, self.num_bins)

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=self.compute_dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "num_bins": self.num_bins,
            "salt": self.salt,
            "mask_value": self.mask_value,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
        }


class HashedCrossing(_Preprocessing):
    """Crosses two or more categorical features into `num_bins` bins (``tf.sparse.cross_hashed``).

    Call it on a list of features of equal shape ``()``, ``(batch,)`` or
    ``(batch, 1)``, each of strings or integers.

    Args:
        num_bins: the number of bins.
        output_mode: ``"int"`` or ``"one_hot"``.
        sparse: must be False.

    Example:
        >>> layer = HashedCrossing(num_bins=5)
        >>> crossed = layer([np.array([1, 2, 3]), np.array(["A", "B", "C"])])
        >>> tuple(crossed.shape)
        (3,)
    """

    _runs_on_host = True  # strings and hashes: NumPy on the host

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        _check_mode("HashedCrossing", output_mode, ("int", "one_hot"))
        _check_sparse("HashedCrossing", sparse)
        self.num_bins = num_bins
        self.output_mode = output_mode
        self.sparse = sparse

    def _check_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(
                "HashedCrossing must be called on a list or tuple of at least two features. "
                f"Received: {inputs!r}."
            )
        shape = tuple(inputs[0].shape)
        if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
            raise ValueError(
                "HashedCrossing features must have shape (), (batch,) or (batch, 1). "
                f"Received a feature of shape {shape}."
            )
        if any(tuple(x.shape) != shape for x in inputs[1:]):
            raise ValueError(
                "HashedCrossing features must all have the same shape. Received shapes "
                f"{[tuple(x.shape) for x in inputs]}."
            )

    def _feature_hash(self, values):
        if is_string_array(values):
            return fingerprint64(as_bytes_list(values))
        if values.dtype.kind not in "iu":
            raise TypeError(
                "HashedCrossing features must be strings or integers. Received a feature of "
                f"dtype {values.dtype}."
            )
        return values.astype("int64").ravel().astype(np.uint64)

    def call(self, inputs):
        features = (
            [to_host(x, "HashedCrossing") for x in inputs]
            if isinstance(inputs, (list, tuple))
            else inputs
        )
        self._check_inputs(features)
        shape = features[0].shape
        crossed = np.full(features[0].size, _CROSS_KEY, dtype=np.uint64)
        for values in features:
            crossed = fingerprint_cat64(crossed, self._feature_hash(values))
        bins = (crossed % np.uint64(self.num_bins)).astype("int64").reshape(shape)
        if self.output_mode == "int":
            # No dtype asked of the engine: int64 where it has it (JAX without x64: int32).
            return ops.convert_to_tensor(bins.astype(self.compute_dtype))
        return encode_categorical(bins, "one_hot", self.num_bins, self.compute_dtype)

    @default  # the output spec gives the shape
    def compute_output_shape(self, input_shape):
        return super().compute_output_shape(input_shape)

    def compute_output_spec(self, *args, **kwargs):
        inputs = args[0] if args else kwargs["inputs"]  # Keras's signature: call's arguments
        self._check_inputs(inputs)
        shape = tuple(inputs[0].shape)
        if self.output_mode == "one_hot":
            shape = encoded_shape(shape, "one_hot", self.num_bins)
        return KerasTensor(shape, dtype=self.compute_dtype)

    def get_config(self):
        return {
            "num_bins": self.num_bins,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "name": self.name,
            "dtype": super().get_config()["dtype"],
        }
