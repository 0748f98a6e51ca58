"""Preprocessing layers for numbers: rescaling, normalization, category encoding and
discretization (the image layers live in the ``_image_*`` modules)."""

import itertools

import numpy as np

from mb_graph import KerasTensor
from mb_layers import _tf_data
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers import _quantile_summary as quantile_summary
from mb_ops import config
from mb_ops.backends import DynamicBackend


class _Preprocessing(Layer):
    """Preprocessing layers accept arrays positionally and are built at once.

    They run inside a ``tf.data`` pipeline (``dataset.map(layer)``) on every backend,
    and compute with `backend` (Keras's ``layer.backend``), the active backend's ops.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._allow_non_tensor_positional_args = True
        self._convert_input_args = False
        self.supports_masking = False
        self.backend = DynamicBackend()
        self.built = True

    # Whether the layer computes on the host (NumPy): inside a TensorFlow graph it then
    # goes through tf.numpy_function on the tensorflow backend too.
    _runs_on_host = False

    def __call__(self, *args, **kwargs):
        if _tf_data.traced_by_tf(args, on_tensorflow=self._runs_on_host):
            return _tf_data.call_in_tf_graph(self, super().__call__, args, kwargs)
        return super().__call__(*args, **kwargs)

    def convert_weight(self, weight):
        """`weight` (a variable or tensor of the active backend) as a tensor of the
        backend `self.backend` computes with (Keras's ``convert_weight``)."""
        if self.backend.name == config.backend():
            return weight
        return self.backend.convert_to_tensor(ops.convert_to_numpy(weight))


class Rescaling(_Preprocessing):
    """Multiplies inputs by `scale` and adds `offset`: ``inputs * scale + offset``.

    For example ``Rescaling(1 / 255)`` maps pixels in [0, 255] to [0, 1], and
    ``Rescaling(1 / 127.5, offset=-1)`` maps them to [-1, 1]. The layer has no
    weights and works the same in training and inference.

    Args:
        scale: a number, or an array broadcastable to the inputs (e.g. one
            value per channel).
        offset: a number or array added after scaling.
        **kwargs: the base layer's keyword arguments (``name``, ``dtype``).

    Call arguments:
        inputs: an array of any shape.

    Returns:
        The rescaled inputs, same shape, in the layer's compute dtype.

    Example:
        >>> import numpy as np
        >>> pixels = np.array([[0.0, 51.0, 255.0]])
        >>> print(np.round(np.asarray(Rescaling(1 / 255)(pixels)), 3))
        [[0.  0.2 1. ]]
        >>> centered = Rescaling(1 / 127.5, offset=-1.0)
        >>> np.asarray(centered(np.array([[0.0, 127.5, 255.0]]))).tolist()
        [[-1.0, 0.0, 1.0]]
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale
        self.offset = offset

    def call(self, inputs):
        x = ops.cast(inputs, self.compute_dtype)
        scale = ops.convert_to_tensor(self.scale, dtype=self.compute_dtype)
        offset = ops.convert_to_tensor(self.offset, dtype=self.compute_dtype)
        return ops.add(ops.multiply(x, scale), offset)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "scale": _plain(self.scale), "offset": _plain(self.offset)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return super().from_config(config)


def _plain(value):
    return value.tolist() if hasattr(value, "tolist") else value


class Normalization(_Preprocessing):
    """Normalizes each feature to ``(x - mean) / sqrt(variance)``.

    The statistics are given (`mean`, `variance`) or learned from data with
    `adapt`; they are kept per entry of the feature `axis` and broadcast over
    the other axes. The deviation is floored at ``epsilon()``, as in Keras.

    Args:
        axis: the feature axis, or a tuple of axes, that keep their own
            statistics (None: one mean and variance over everything).
        mean: the mean, a number or one value per kept entry (give it with
            `variance`, or neither and call `adapt`).
        variance: the variance, laid out as `mean`.
        invert: if True, apply the inverse, ``mean + x * sqrt(variance)``.
        **kwargs: the base layer's keyword arguments (``name``, ``dtype``).

    Call arguments:
        inputs: a float array (ints are cast to the compute dtype).

    Returns:
        The normalized (or, with `invert`, denormalized) inputs, same shape.

    Example:
        >>> import numpy as np
        >>> layer = Normalization(mean=2.0, variance=4.0)
        >>> np.asarray(layer(np.array([[0.0], [2.0], [6.0]]))).tolist()
        [[-1.0], [0.0], [2.0]]
        >>> adapted = Normalization()
        >>> adapted.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
        >>> np.asarray(adapted(np.array([[1.0, 10.0], [2.0, 40.0]]))).tolist()
        [[-1.0, -1.0], [0.0, 2.0]]
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.built = False
        # Inputs become float tensors, so NumPy data has a shape to build from on every backend.
        self._convert_input_args = True
        self.axis = (axis,) if isinstance(axis, int) else tuple(axis or ())
        if (mean is None) != (variance is None):
            raise ValueError(
                "Normalization needs both `mean` and `variance`, or neither (then call "
                f"adapt()). Received: mean={mean!r}, variance={variance!r}."
            )
        self.input_mean = mean
        self.input_variance = variance
        self.invert = invert
        self.supports_masking = True

    @property
    def mean(self):
        """The mean, in the inputs' broadcast shape (None until the layer is built):
        the given one, or the adapted one (`adapt`, or weights loaded since)."""
        return self._stats()[0] if self.built else None

    @property
    def variance(self):
        """The variance, as `mean` is laid out (None until the layer is built)."""
        return self._stats()[1] if self.built else None

    def finalize_state(self):
        """Keras's hook run after `adapt`: `mean` and `variance` already read the adapted
        variables each time, so there is nothing left to compute here."""

    def build(self, input_shape):
        rank = len(input_shape)
        axes = tuple(a % rank for a in self.axis)
        self._broadcast_shape = [input_shape[a] if a in axes else 1 for a in range(rank)]
        self._reduce_axes = tuple(a for a in range(rank) if a not in axes)
        stats_shape = tuple(input_shape[a] for a in axes)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(
                name="mean", shape=stats_shape, initializer="zeros", trainable=False
            )
            self.adapt_variance = self.add_weight(
                name="variance", shape=stats_shape, initializer="ones", trainable=False
            )
            # Keras keeps this never-updated counter so that weight files written by
            # Keras 2 (EfficientNet's ImageNet weights among them) still line up.
            self.count = self.add_weight(
                name="count", shape=(), dtype="int", initializer="zeros", trainable=False
            )

    def adapt(self, data):
        """Learns the mean and variance of `data` (an array or an iterable of batches)."""
        if hasattr(data, "shape"):
            batches = [np.asarray(ops.convert_to_numpy(data))]
        else:
            batches = [np.asarray(ops.convert_to_numpy(b)) for b in data]
        values = np.concatenate(batches, axis=0).astype("float64")
        if not self.built:
            self.build((None, *values.shape[1:]))
        self.adapt_mean.assign(values.mean(axis=self._reduce_axes).astype(self.variable_dtype))
        self.adapt_variance.assign(values.var(axis=self._reduce_axes).astype(self.variable_dtype))
        self.finalize_state()

    def _fit(self, value):
        """A given statistic as the broadcast shape: a scalar, or one value per kept entry
        (laid out along the kept axes, wherever they are, as Keras reshapes it)."""
        value = np.asarray(value, "float64")
        if value.ndim == 0:
            return np.broadcast_to(value, self._broadcast_shape)
        return value.reshape(self._broadcast_shape)

    def _stats(self):
        if self.input_mean is not None:
            mean = self._fit(self.input_mean)
            variance = self._fit(self.input_variance)
            return (
                ops.convert_to_tensor(mean, self.compute_dtype),
                ops.convert_to_tensor(variance, self.compute_dtype),
            )
        return (
            ops.reshape(ops.cast(self.adapt_mean, self.compute_dtype), self._broadcast_shape),
            ops.reshape(ops.cast(self.adapt_variance, self.compute_dtype), self._broadcast_shape),
        )

    def call(self, inputs):
        x = ops.cast(inputs, self.compute_dtype)
        mean, variance = self._stats()
        if self.invert:  # as Keras: the same floor on the deviation both ways
            return ops.add(mean, ops.multiply(x, ops.maximum(ops.sqrt(variance), config.epsilon())))
        return ops.divide(ops.subtract(x, mean), ops.maximum(ops.sqrt(variance), config.epsilon()))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "invert": self.invert,
            "mean": _plain(self.input_mean),
            "variance": _plain(self.input_variance),
        }


_MODES = ("one_hot", "multi_hot", "count")


class CategoryEncoding(_Preprocessing):
    """Encodes integer categories as one-hot, multi-hot or count vectors.

    Args:
        num_tokens: the number of categories; inputs are ints in
            ``[0, num_tokens)``.
        output_mode: ``"one_hot"`` (each input becomes a vector of length
            `num_tokens`; a last axis of size 1 is replaced),
            ``"multi_hot"`` (one vector per row marking every category seen)
            or ``"count"`` (one vector per row counting each category).
        sparse: sparse outputs; not supported yet (True raises
            NotImplementedError).
        **kwargs: the base layer's keyword arguments (``name``, ``dtype``).

    Call arguments:
        inputs: an int array of category ids, ``(batch,)`` or
            ``(batch, ids)``.
        count_weights: with ``output_mode="count"``, a weight per input id
            (same shape as `inputs`) to sum instead of 1.

    Returns:
        Float vectors of length `num_tokens` (compute dtype): ``(batch,
        num_tokens)`` for multi-hot and count, one vector per id for one-hot.

    Example:
        >>> import numpy as np
        >>> one_hot = CategoryEncoding(num_tokens=4, output_mode="one_hot")
        >>> np.asarray(one_hot(np.array([3, 2, 0, 1]))).tolist()
        [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
        >>> multi_hot = CategoryEncoding(num_tokens=4, output_mode="multi_hot")
        >>> np.asarray(multi_hot(np.array([[0, 1], [0, 0], [1, 2], [3, 1]]))).tolist()
        [[1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]]
        >>> count = CategoryEncoding(num_tokens=4, output_mode="count")
        >>> np.asarray(count(np.array([[0, 0], [3, 1]]))).tolist()
        [[2.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0]]
    """

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in _MODES:
            raise ValueError(
                f"CategoryEncoding output_mode must be one of {_MODES}. "
                f"Received: output_mode={output_mode!r}."
            )
        if num_tokens is None or num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens!r}.")
        if sparse:
            raise NotImplementedError("CategoryEncoding(sparse=True) is not supported yet.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse

    def call(self, inputs, count_weights=None):
        inputs = ops.convert_to_tensor(inputs)
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(
                "CategoryEncoding takes `count_weights` only with output_mode='count'. "
                f"Received: output_mode={self.output_mode!r}."
            )
        if self.output_mode == "multi_hot":
            return ops.multi_hot(inputs, self.num_tokens, dtype=self.compute_dtype)
        if len(inputs.shape) > 1 and inputs.shape[-1] == 1 and self.output_mode == "one_hot":
            inputs = ops.squeeze(inputs, axis=-1)
        encoded = ops.one_hot(inputs, self.num_tokens, dtype=self.compute_dtype)
        if self.output_mode == "one_hot":
            return encoded
        if count_weights is not None:  # each occurrence counts its weight
            weights = ops.cast(ops.convert_to_tensor(count_weights), self.compute_dtype)
            encoded = ops.multiply(encoded, ops.expand_dims(weights, -1))
        return ops.sum(encoded, axis=1 if len(inputs.shape) > 1 else 0)

    def compute_output_spec(self, inputs, count_weights=None):
        return super().compute_output_spec(inputs)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        if not shape:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and shape[-1] != 1:
            return (*shape, self.num_tokens)
        return (*shape[:-1], self.num_tokens)

    def get_config(self):
        return {
            **super().get_config(),
            "num_tokens": self.num_tokens,
            "output_mode": self.output_mode,
        }


class Discretization(_Preprocessing):
    """Buckets numbers into bins given by `bin_boundaries` (or learned by `adapt`).

    A value ``x`` falls in bin ``i`` when ``bin_boundaries[i - 1] <= x <
    bin_boundaries[i]``: ``n`` boundaries make ``n + 1`` bins, the first and
    last open-ended.

    Args:
        bin_boundaries: the sorted boundaries, or None to learn `num_bins`
            bins with `adapt`.
        num_bins: the number of bins `adapt` learns (of about equal counts);
            give this or `bin_boundaries`, not both.
        epsilon: the error tolerance of the quantiles `adapt` computes.
        output_mode: ``"int"`` (the bin index, int32) or ``"one_hot"``,
            ``"multi_hot"``, ``"count"`` (encoded as `CategoryEncoding` does).
        sparse: sparse outputs (kept in the config; outputs are dense).
        dtype: the layer's dtype (the float dtype of encoded outputs).
        name: the layer's name.

    Call arguments:
        inputs: a numeric array.

    Returns:
        ``"int"``: the bin indices, same shape, int32; otherwise the encoded
        bins, whose last axis has one entry per bin.

    Example:
        >>> import numpy as np
        >>> layer = Discretization(bin_boundaries=[0.0, 1.0, 2.0])
        >>> np.asarray(layer(np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]]))).tolist()
        [[0, 2, 3, 1], [1, 3, 2, 1]]
        >>> learned = Discretization(num_bins=4)
        >>> learned.adapt(np.arange(8.0))
        >>> learned.bin_boundaries
        [1.0, 3.0, 5.0]
    """

    def __init__(
        self,
        bin_boundaries=None,
        num_bins=None,
        epsilon=0.01,
        output_mode="int",
        sparse=False,
        dtype=None,
        name=None,
    ):
        # As Keras 3.15: `dtype` is the layer's (float) dtype; "int" outputs are int32.
        super().__init__(name=name, dtype=dtype)
        if output_mode not in ("int", *_MODES):
            raise ValueError(
                "Discretization output_mode must be 'int', 'one_hot', 'multi_hot' or 'count'. "
                f"Received: output_mode={output_mode!r}."
            )
        if bin_boundaries is not None and num_bins is not None:
            raise ValueError("Give Discretization `bin_boundaries` or `num_bins`, not both.")
        self.bin_boundaries = None if bin_boundaries is None else list(bin_boundaries)
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse
        self.summary = None if num_bins is None else quantile_summary.empty_summary()

    def adapt(self, data, steps=None):
        """Learns `num_bins` bins of equal counts from `data` (Keras's quantile summary).

        Args:
            data: an array or tensor, or an iterable of batches (a list of
                arrays, a generator, a ``tf.data.Dataset``).
            steps: how many batches of an iterable to read (all when None).
        """
        if self.num_bins is None:
            raise ValueError(
                "Discretization.adapt() learns `num_bins` bins, but this layer was given "
                "`bin_boundaries`. Create it with `num_bins=...` to adapt it."
            )
        if hasattr(data, "shape") or isinstance(data, np.ndarray):
            batches = [data]
        elif steps is not None:
            batches = itertools.islice(data, steps)
        else:
            batches = data
        self.reset_state()
        for batch in batches:
            self.update_state(batch)
        self.finalize_state()

    def reset_state(self):
        """Forgets the data seen by `update_state`."""
        self.summary = quantile_summary.empty_summary()

    def update_state(self, data):
        """Adds a batch to the quantile summary (`finalize_state` turns it into bins)."""
        if getattr(self, "summary", None) is None:
            self.reset_state()
        values = np.asarray(ops.convert_to_numpy(data), dtype="float32")
        new = quantile_summary.summarize(values, self.epsilon)
        self.summary = quantile_summary.merge(new, self.summary, self.epsilon)

    def finalize_state(self):
        """Sets `bin_boundaries` from the summary (nothing for a layer given boundaries)."""
        if self.num_bins is None:
            return
        self.bin_boundaries = quantile_summary.bin_boundaries(self.summary, self.num_bins).tolist()

    @property
    def output_dtype(self):
        """The dtype of the outputs (int32 bucket indices, or floats when encoded)."""
        return "int32" if self.output_mode == "int" else self.compute_dtype

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=self.output_dtype)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        boundaries = config.get("bin_boundaries")
        if boundaries is not None and config.get("num_bins") is not None:
            # An adapted layer's config has both (as Keras's): create it with
            # `num_bins`, then restore the learned boundaries.
            config["bin_boundaries"] = None
            layer = cls(**config)
            layer.bin_boundaries = list(boundaries)
            return layer
        return cls(**config)

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("Discretization has no bin boundaries: pass them or call adapt().")
        indices = ops.digitize(ops.convert_to_tensor(inputs), self.bin_boundaries)
        if self.output_mode == "int":
            return ops.cast(indices, self.output_dtype)
        depth = len(self.bin_boundaries) + 1
        return CategoryEncoding(depth, output_mode=self.output_mode, dtype=self.compute_dtype)(
            indices
        )

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = len(self.bin_boundaries or ()) + 1 if self.num_bins is None else self.num_bins
        return (*tuple(input_shape)[:-1], depth) if input_shape else (depth,)

    def get_config(self):
        base = super().get_config()
        base.pop("trainable")  # Keras's Discretization takes no `trainable`.
        return {
            **base,
            "bin_boundaries": self.bin_boundaries,
            "num_bins": self.num_bins,
            "epsilon": self.epsilon,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
        }
