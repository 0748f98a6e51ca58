"""Activation layers: `Activation`, `ELU`, `LeakyReLU`, `PReLU`, `ReLU`, `Softmax`."""

from mb_layers import activations
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._arguments import (
    add_weight_of,
    serialized_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_ops import dtypes


class _Elementwise(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class Activation(_Elementwise):
    """Applies an activation function (name or callable) to its input.

    Args:
        activation: the name of an activation (``"relu"``, ``"gelu"``, ...) or a callable.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([-2.0, -0.5, 0.0, 3.0], "float32")
    >>> ops.convert_to_numpy(Activation("relu")(x)).tolist()
    [0.0, 0.0, 0.0, 3.0]
    """

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), **serialized_arguments(self, "activation")}


class ELU(_Elementwise):
    """Exponential linear unit with slope `alpha` for negative inputs.

    ``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise.

    Args:
        alpha: the scale of the negative part.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([-2.0, -0.5, 0.0, 3.0], "float32")
    >>> ops.convert_to_numpy(ELU()(x)).astype("float64").round(4).tolist()
    [-0.8647, -0.3935, 0.0, 3.0]
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class LeakyReLU(_Elementwise):
    """``x`` for positive inputs, ``negative_slope * x`` otherwise.

    Args:
        negative_slope: the slope for negative inputs (Keras's old name: ``alpha``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([-2.0, -0.5, 0.0, 3.0], "float32")
    >>> ops.convert_to_numpy(LeakyReLU(negative_slope=0.1)(x)).astype("float64").round(4).tolist()
    [-0.2, -0.05, 0.0, 3.0]
    """

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
    """Rectified linear unit with optional cap, leak and threshold.

    ``max_value`` for ``x >= max_value``, ``x`` for ``threshold <= x < max_value``,
    ``negative_slope * (x - threshold)`` otherwise.

    Args:
        max_value: None or the largest output.
        negative_slope: the slope below ``threshold``.
        threshold: the input value below which the slope is ``negative_slope``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([-2.0, -0.5, 0.0, 3.0], "float32")
    >>> ops.convert_to_numpy(ReLU()(x)).tolist()
    [0.0, 0.0, 0.0, 3.0]
    >>> ops.convert_to_numpy(ReLU(max_value=2.0)(x)).tolist()
    [0.0, 0.0, 0.0, 2.0]
    """

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
    """Softmax along `axis` (an int or a tuple); masked positions get probability ~0.

    Args:
        axis: an int or a tuple of ints.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Call arguments:
        inputs: a tensor of logits.
        mask: None or a boolean tensor of the same shape: False positions are excluded.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> logits = np.array([[1.0, 1.0, 5.0]], "float32")
    >>> y = Softmax()(logits, mask=np.array([[True, True, False]]))
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[0.5, 0.5, 0.0]]
    """

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
        alpha_initializer: the initializer of `alpha` (zeros: a plain ReLU at first).
        alpha_regularizer: a penalty on `alpha`.
        alpha_constraint: a projection applied to `alpha` after updates.
        shared_axes: axes (1-based, batch excluded) along which `alpha` is shared.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([-2.0, -0.5, 0.0, 3.0], "float32")
    >>> from mb_layers import initializers
    >>> layer = PReLU(alpha_initializer=initializers.Constant(0.25))
    >>> ops.convert_to_numpy(layer(x[None])).astype("float64").round(4).tolist()
    [[-0.5, -0.125, 0.0, 3.0]]
    >>> tuple(layer.alpha.shape)
    (4,)
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
        set_weight_arguments(self, locals(), "alpha")
        if shared_axes is None or isinstance(shared_axes, (list, tuple)):
            self.shared_axes = None if shared_axes is None else list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            param_shape[axis - 1] = 1
        self.alpha = add_weight_of(self, "alpha", tuple(param_shape))

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
