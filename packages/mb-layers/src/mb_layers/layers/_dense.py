"""`Dense`: ``activation(inputs @ kernel + bias)`` on the last axis."""

from mb_layers import activations
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers import _quantized, _quantized_float8, _quantized_gptq
from mb_layers.layers._arguments import (
    add_weight_of,
    serialized_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_layers.layers._kernel_variables import KernelVariables
from mb_ops.quantizers import unpack_int4


class Dense(KernelVariables, Layer):
    """A densely connected layer on the last axis of its input.

    Args:
        units: the size of the output's last axis.
        activation: activation function (name or callable); None: linear.
        use_bias: whether to add a bias.
        kernel_initializer, bias_initializer: initializers of the weights.
        kernel_regularizer, bias_regularizer: penalties on the weights.
        activity_regularizer: penalty on the output.
        kernel_constraint, bias_constraint: projections of the weights.

    Example:

    >>> import numpy as np
    >>> layer = Dense(3)
    >>> tuple(layer(np.ones((2, 4), "float32")).shape)
    (2, 3)
    """

    def __init__(
        self,
        units,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"Dense `units` must be a positive int. Received: units={units!r}.")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_weight_arguments(self, locals(), "kernel", "bias")
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.quantization_config = quantization_config
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"Dense expects its input's last axis to be known. Received: input shape "
                f"{tuple(input_shape)}. Give the Input layer a shape, e.g. Input((32,))."
            )
        kernel_shape = (input_dim, self.units)
        mode = self.quantization_mode
        if mode:
            self.quantized_build(kernel_shape, mode=mode, config=self.quantization_config)
        if mode not in ("int8", "int4", "gptq", "awq"):
            self._kernel = add_weight_of(self, "kernel", kernel_shape)
        if self.use_bias:
            self.bias = add_weight_of(self, "bias", (self.units,))
        else:
            self.bias = None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    @property
    def kernel(self):
        """The kernel: the float variable, the int8 one (int8 mode), or the unpacked int4
        values (int4 mode); with LoRA, plus ``lora_alpha / lora_rank * a @ b``."""
        return self._effective_kernel(lambda k: unpack_int4(k, self._orig_output_dim, axis=-1))

    def call(self, inputs, training=None):
        x = ops.matmul(inputs, self.kernel)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return (*tuple(input_shape)[:-1], self.units)

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            **serialized_arguments(self, "activation"),
            "use_bias": self.use_bias,
            **weight_arguments(self, "kernel", "bias"),
            "quantization_config": _quantized.serialize_config(self.quantization_config),
            **_quantized.lora_config(self),
        }

    @classmethod
    def from_config(cls, config):
        return super().from_config(_quantized.deserialize_config_entry(config))

    # ----- LoRA and quantization (as Keras 3.15) -------------------------------------

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"):
        """Freezes the kernel and adds trainable ``lora_kernel_a`` ``(input_dim, rank)`` and
        ``lora_kernel_b`` ``(rank, units)``; the kernel used is
        ``kernel + lora_alpha / rank * a @ b`` (b starts at zero)."""
        input_dim = getattr(self, "_orig_input_dim", None) or self._kernel.shape[0]
        _quantized.enable_lora(
            self,
            "kernel",
            (input_dim, self.units),
            rank,
            lora_alpha,
            a_initializer,
            b_initializer,
        )

    def _merged_kernel(self):
        """``(kernel, scale, zero)`` to save: LoRA merged (and re-quantized) as Keras."""
        return _quantized.merged_matrix(self, "kernel", reduce_axis=0)

    def quantized_build(self, kernel_shape, mode, config=None):
        """Creates the variables of the quantized kernel for `mode`."""
        if mode == "int8":
            _quantized.build_int8_matrix(self, "kernel", kernel_shape, (self.units,), config)
        elif mode == "int4":
            _quantized.build_int4_matrix(self, "kernel", kernel_shape, config, reduce_axis=0)
        elif mode == "float8":
            _quantized_float8.build(self)
        elif mode in _quantized_gptq.CALIBRATED_MODES:
            _quantized_gptq.build(self, kernel_shape, mode, config)
        else:
            raise self._quantization_mode_error(mode)
        self._is_quantized = True

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantizes the kernel in place (``"int8"``, ``"int4"``; ``"float8"`` keeps it
        float and adds the scaling variables of float8 training), as Keras 3.15 does."""
        if type_check and type(self) is not Dense:
            raise self._not_implemented_error(self.quantize)
        if mode == "float8":
            return _quantized_float8.quantize(self, config)
        self.quantization_config = config
        if mode in _quantized_gptq.CALIBRATED_MODES:
            # Variables only: `model.quantize` calibrates them (the float kernel until then).
            self.quantized_build(tuple(self._kernel.shape), mode, config)
        else:
            _quantized.quantize_matrix(self, "kernel", mode, config, reduce_axis=0)
        self._set_quantized_policy(mode, config)

    def _int8_call(self, inputs, training=None):
        x = _quantized.int8_matmul_call(self, inputs)
        return self._finish(_quantized.add_lora(self, inputs, x, "kernel"))

    def _int4_call(self, inputs, training=None):
        x = _quantized.int4_matmul_call(self, inputs)
        return self._finish(_quantized.add_lora(self, inputs, x, "kernel"))

    def _float8_call(self, inputs, training=None):
        x = _quantized_float8.product(self, inputs, training)
        return _quantized_float8.finish(self, x)

    def _gptq_call(self, inputs, training=None):
        return _quantized_gptq.calibrated_call(self, inputs, ops.matmul)

    _awq_call = _gptq_call

    def _finish(self, x):
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)
