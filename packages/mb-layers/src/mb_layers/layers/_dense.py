"""`Dense`: ``activation(inputs @ kernel + bias)`` on the last axis."""

from mb_layers import activations, constraints, initializers, regularizers
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops


class Dense(Layer):
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
        if lora_rank is not None or quantization_config is not None:
            raise NotImplementedError(
                "Dense: LoRA and quantization are not supported by mb yet. Received: "
                f"lora_rank={lora_rank!r}, quantization_config={quantization_config!r}."
            )
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"Dense expects its input's last axis to be known. Received: input shape "
                f"{tuple(input_shape)}. Give the Input layer a shape, e.g. Input((32,))."
            )
        self.kernel = self.add_weight(
            name="kernel",
            shape=(input_dim, self.units),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias",
                shape=(self.units,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
            )
        else:
            self.bias = None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})

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
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": _maybe(regularizers.serialize, self.kernel_regularizer),
            "bias_regularizer": _maybe(regularizers.serialize, self.bias_regularizer),
            "kernel_constraint": _maybe(constraints.serialize, self.kernel_constraint),
            "bias_constraint": _maybe(constraints.serialize, self.bias_constraint),
            "quantization_config": None,
        }


def _maybe(fn, value):
    return None if value is None else fn(value)
