"""Core layers without a kernel contraction: `Embedding`, `Identity`, `Masking`."""

from mb_graph import KerasTensor, tree
from mb_layers import constraints, initializers, regularizers
from mb_layers._layer import Layer
from mb_layers._masking import set_keras_mask
from mb_layers._ops import ops
from mb_layers.layers._dense import _maybe
from mb_ops import dtypes


class Embedding(Layer):
    """Maps integer indices to dense vectors (rows of a learned matrix).

    Args:
        input_dim: size of the vocabulary (largest index + 1).
        output_dim: size of each vector.
        embeddings_initializer, embeddings_regularizer, embeddings_constraint:
            for the ``(input_dim, output_dim)`` matrix.
        mask_zero: whether index 0 is padding (the output then carries a mask).
        weights: optional initial value of the matrix.

    Example:

    >>> import numpy as np
    >>> layer = Embedding(10, 4)
    >>> tuple(layer(np.array([[1, 2, 3]])).shape)
    (1, 3, 4)
    """

    def __init__(
        self,
        input_dim,
        output_dim,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        weights=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        input_length = kwargs.pop("input_length", None)
        del input_length  # Keras 2 argument, ignored as in Keras 3.
        super().__init__(**kwargs)
        if lora_rank is not None or quantization_config is not None:
            raise NotImplementedError("Embedding: LoRA and quantization are not supported yet.")
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.autocast = False
        self._initial_weights = weights
        if weights is not None:
            self.build()
            self.set_weights(weights if isinstance(weights, list) else [weights])

    def build(self, input_shape=None):
        if self.built:
            return
        self.embeddings = self.add_weight(
            name="embeddings",
            shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer,
            regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint,
            trainable=True,
        )

    def call(self, inputs):
        if dtypes.standardize_dtype(inputs.dtype) not in ("int32", "int64"):
            inputs = ops.cast(inputs, "int32")
        outputs = ops.take(self.embeddings, inputs, axis=0)
        return ops.cast(outputs, self.compute_dtype)

    def compute_mask(self, inputs, previous_mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return (*tuple(input_shape), self.output_dim)

    def get_config(self):
        return {
            **super().get_config(),
            "input_dim": self.input_dim,
            "output_dim": self.output_dim,
            "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
            "embeddings_regularizer": _maybe(regularizers.serialize, self.embeddings_regularizer),
            "activity_regularizer": _maybe(regularizers.serialize, self.activity_regularizer),
            "embeddings_constraint": _maybe(constraints.serialize, self.embeddings_constraint),
            "mask_zero": self.mask_zero,
            "quantization_config": None,
        }


class Identity(Layer):
    """Returns its input unchanged (masks included)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_spec(self, inputs):
        return tree.map_structure(
            lambda x: KerasTensor(x.shape, x.dtype, sparse=x.sparse, ragged=x.ragged), inputs
        )

    def get_config(self):
        return super().get_config()


class Masking(Layer):
    """Masks timesteps whose features all equal `mask_value` (and zeroes them).

    Args:
        mask_value: the padding value.
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True
        self.built = True

    def compute_mask(self, inputs, previous_mask=None):
        return ops.any(ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = ops.any(ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        outputs = ops.multiply(inputs, ops.cast(keep, inputs.dtype))
        set_keras_mask(outputs, ops.squeeze(keep, axis=-1))
        return outputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
