"""Core layers without a kernel contraction: `Embedding`, `Identity`, `Masking`."""

from mb_graph import KerasTensor, tree
from mb_layers._layer import Layer
from mb_layers._masking import set_keras_mask
from mb_layers._ops import ops
from mb_layers.layers import _quantized
from mb_layers.layers._arguments import add_weight_of, set_weight_arguments, weight_arguments
from mb_ops import dtypes
from mb_ops.quantizers import dequantize_with_sz_map, unpack_int4


class Embedding(Layer):
    """Maps integer indices to dense vectors (rows of a learned matrix).

    Args:
        input_dim: size of the vocabulary (largest index + 1).
        output_dim: size of each vector.
        embeddings_initializer, embeddings_regularizer, embeddings_constraint:
            for the ``(input_dim, output_dim)`` matrix.
        mask_zero: whether index 0 is padding (the output then carries a mask).
        weights: optional initial value of the matrix.
        lora_rank, lora_alpha, quantization_config: as in `Dense`.

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
        self.input_dim = input_dim
        self.output_dim = output_dim
        set_weight_arguments(self, locals(), "embeddings")
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.autocast = False
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.quantization_config = quantization_config
        self._initial_weights = weights
        if weights is not None:
            self.build()
            self.set_weights(weights if isinstance(weights, list) else [weights])

    def build(self, input_shape=None):
        if self.built:
            return
        shape = (self.input_dim, self.output_dim)
        mode = self.quantization_mode
        if mode:
            self.quantized_build(shape, mode=mode, config=self.quantization_config)
        if mode not in ("int8", "int4"):
            self._embeddings = add_weight_of(self, "embeddings", shape, trainable=True)
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    @property
    def embeddings(self):
        """The table (int8 values in int8 mode, unpacked int4 values in int4 mode), plus
        the LoRA update when enabled."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `embeddings`.")
        embeddings = self._embeddings
        if self.quantization_mode == "int4":
            embeddings = unpack_int4(embeddings, self._orig_output_dim, axis=-1)
        if self.lora_enabled:
            embeddings = ops.cast(
                ops.add(embeddings, _quantized.lora_delta(self, "embeddings")),
                self.compute_dtype,
            )
        return embeddings

    def call(self, inputs):
        if dtypes.standardize_dtype(inputs.dtype) not in ("int32", "int64"):
            inputs = ops.cast(inputs, "int32")
        outputs = ops.take(self.embeddings, inputs, axis=0)
        return ops.cast(outputs, self.compute_dtype)

    # ----- LoRA and quantization (as Keras 3.15) -------------------------------------

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"):
        """Freezes the table and adds trainable ``lora_embeddings_a`` ``(input_dim, rank)``
        and ``lora_embeddings_b`` ``(rank, output_dim)``."""
        _quantized.enable_lora(
            self,
            "embeddings",
            (self.input_dim, self.output_dim),
            rank,
            lora_alpha,
            a_initializer,
            b_initializer,
        )

    @property
    def variable_serialization_spec(self):
        """The variables each quantization mode saves, in their order in files."""
        return {
            None: ["embeddings"],
            "int8": ["embeddings", "embeddings_scale"],
            "int4": ["embeddings", "embeddings_scale", "embeddings_zero", "g_idx"],
        }

    def save_own_variables(self, store):
        if not self.built:
            return
        if not _quantized.uses_spec(self):
            return super().save_own_variables(store)
        merged = _quantized.merged_matrix(self, "embeddings", reduce_axis=-1)
        _quantized.save_kernel_layer(self, store, "embeddings", merged)

    def load_own_variables(self, store):
        if not self.built:
            return
        if not _quantized.uses_spec(self):
            return super().load_own_variables(store)
        _quantized.load_kernel_layer(self, store, "embeddings")

    # Files then hold the generic layout: mb-saving checks and loads it the stock way.
    load_own_variables.stock_when = _quantized.generic_layout

    def _quantization_mode_error(self, mode):
        return NotImplementedError(
            "Invalid quantization mode. Expected one of ('int8', 'int4'). "
            f"Received: quantization_mode={mode}"
        )

    def quantized_build(self, embeddings_shape, mode, config=None):
        """Creates the variables of the quantized table for `mode`."""
        if mode == "int8":
            _quantized.build_int8_matrix(
                self,
                "embeddings",
                embeddings_shape,
                (self.input_dim,),
                config,
                inputs_quantizer=False,
            )
        elif mode == "int4":
            _quantized.build_int4_matrix(
                self, "embeddings", embeddings_shape, config, reduce_axis=-1, inputs_quantizer=False
            )
        else:
            raise self._quantization_mode_error(mode)
        self._is_quantized = True

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantizes the table in place, one scale per row (``"int8"``, ``"int4"``)."""
        if type_check and type(self) is not Embedding:
            raise self._not_implemented_error(self.quantize)
        self.quantization_config = config
        _quantized.quantize_matrix(
            self, "embeddings", mode, config, reduce_axis=-1, inputs_quantizer=False
        )
        self._set_quantized_policy(mode, config)

    def _lookup(self, inputs):
        if dtypes.standardize_dtype(inputs.dtype) not in ("int32", "int64"):
            inputs = ops.cast(inputs, "int32")
        return inputs

    def _int8_call(self, inputs, training=None):
        inputs = self._lookup(inputs)
        scale = ops.take(self.embeddings_scale, inputs, axis=0)
        outputs = ops.take(self._embeddings, inputs, axis=0)
        outputs = ops.divide(ops.cast(outputs, self.compute_dtype), ops.expand_dims(scale, axis=-1))
        return self._add_lora(inputs, outputs)

    def _int4_call(self, inputs, training=None):
        inputs = self._lookup(inputs)
        unpacked = unpack_int4(self._embeddings, self._orig_output_dim, axis=-1)
        outputs = ops.take(unpacked, inputs, axis=0)
        scale = ops.take(self.embeddings_scale, inputs, axis=0)
        block_size = getattr(self, "_int4_block_size", None)
        if block_size is None or block_size == -1:
            outputs = ops.divide(
                ops.cast(outputs, self.compute_dtype), ops.expand_dims(scale, axis=-1)
            )
        else:
            zero = ops.take(self.embeddings_zero, inputs, axis=0)
            outputs = dequantize_with_sz_map(
                ops.cast(outputs, self.compute_dtype), scale, zero, self.g_idx, group_axis=-1
            )
        return self._add_lora(inputs, outputs)

    def _add_lora(self, inputs, outputs):
        return _quantized.add_lora(
            self,
            inputs,
            outputs,
            "embeddings",
            first=lambda a: ops.take(a, inputs, axis=0),
        )

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return (*tuple(input_shape), self.output_dim)

    def compute_output_spec(self, inputs):
        return super().compute_output_spec(inputs)

    def get_config(self):
        return {
            **super().get_config(),
            "input_dim": self.input_dim,
            "output_dim": self.output_dim,
            **weight_arguments(self, "embeddings", activity_regularizer=True),
            "mask_zero": self.mask_zero,
            "quantization_config": _quantized.serialize_config(self.quantization_config),
            **_quantized.lora_config(self),
        }

    @classmethod
    def from_config(cls, config):
        return super().from_config(_quantized.deserialize_config_entry(config))


class Identity(Layer):
    """Returns its input unchanged (masks included).

    Args:
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(Identity()(np.array([[1.0, 2.0]], "float32"))).tolist()
    [[1.0, 2.0]]
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def compute_output_spec(self, inputs):
        return tree.map_structure(
            lambda x: KerasTensor(x.shape, x.dtype, sparse=x.sparse, ragged=x.ragged), inputs
        )

    def get_config(self):
        return super().get_config()


class Masking(Layer):
    """Masks timesteps whose features all equal `mask_value` (and zeroes them).

    Layers after it that support masking (RNNs, ``GlobalAveragePooling1D``, attention)
    skip the masked steps.

    Args:
        mask_value: the padding value.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[[1.0], [0.0], [2.0]]], "float32")  # the second step is padding
    >>> ops.convert_to_numpy(Masking().compute_mask(x)).tolist()
    [[True, False, True]]
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True
        self.built = True

    def compute_mask(self, inputs, mask=None):
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
