"""Activation layers: `Activation`, `ELU`, `LeakyReLU`, `PReLU`, `ReLU`, `Softmax`."""

from mb_layers import activations, constraints, initializers, regularizers
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._arguments import serialized_arguments, weight_arguments
from mb_ops import dtypes


class _Elementwise(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class Activation(_Elementwise):
    """Applies an activation function (name or callable) to its input."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), **serialized_arguments(self, "activation")}


class ELU(_Elementwise):
    """Exponential linear unit with slope `alpha` for negative inputs."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class LeakyReLU(_Elementwise):
    """``x`` for positive inputs, ``negative_slope * x`` otherwise."""

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(
                "LeakyReLU `negative_slope` must be a non-negative float. "
                f"Received: negative_slope={negative_slope!r}."
            )
        self.negative_slope = negative_slope

    def call(self, inputs):
        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ReLU(_Elementwise):
    """Rectified linear unit with optional cap, leak and threshold."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"ReLU `max_value` must be >= 0. Received: max_value={max_value}.")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError(
                f"ReLU `negative_slope` must be >= 0. Received: negative_slope={negative_slope}."
            )
        if threshold is None or threshold < 0.0:
            raise ValueError(f"ReLU `threshold` must be >= 0. Received: threshold={threshold}.")
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold

    def call(self, inputs):
        return activations.relu(
            inputs,
            negative_slope=self.negative_slope,
            max_value=self.max_value,
            threshold=self.threshold,
        )

    def get_config(self):
        return {
            **super().get_config(),
            "max_value": self.max_value,
            "negative_slope": self.negative_slope,
            "threshold": self.threshold,
        }


def _large_negative(dtype):
    return -3e4 if dtypes.standardize_dtype(dtype) == "float16" else -1e9


class Softmax(_Elementwise):
    """Softmax along `axis` (an int or a tuple); masked positions get probability ~0."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            adder = ops.multiply(
                ops.subtract(1.0, ops.cast(mask, inputs.dtype)), _large_negative(inputs.dtype)
            )
            inputs = ops.add(inputs, adder)
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:
                return ops.exp(
                    ops.subtract(inputs, ops.logsumexp(inputs, axis=self.axis, keepdims=True))
                )
            return activations.softmax(inputs, axis=self.axis[0])
        return activations.softmax(inputs, axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class PReLU(Layer):
    """Leaky ReLU whose negative slope `alpha` is learned (per unit).

    Args:
        alpha_initializer, alpha_regularizer, alpha_constraint: for `alpha`.
        shared_axes: axes (1-based, batch excluded) along which `alpha` is shared.
    """

    def __init__(
        self,
        alpha_initializer="Zeros",
        alpha_regularizer=None,
        alpha_constraint=None,
        shared_axes=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None or isinstance(shared_axes, (list, tuple)):
            self.shared_axes = None if shared_axes is None else list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            param_shape[axis - 1] = 1
        self.alpha = self.add_weight(
            shape=tuple(param_shape),
            name="alpha",
            initializer=self.alpha_initializer,
            regularizer=self.alpha_regularizer,
            constraint=self.alpha_constraint,
        )

    def call(self, inputs):
        positive = activations.relu(inputs)
        negative = ops.multiply(ops.negative(self.alpha), activations.relu(ops.negative(inputs)))
        return ops.add(positive, negative)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            **weight_arguments(self, "alpha"),
            "shared_axes": self.shared_axes,
        }
