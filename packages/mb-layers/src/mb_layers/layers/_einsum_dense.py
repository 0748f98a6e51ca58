"""`EinsumDense`: a dense layer whose contraction is an einsum equation."""

import re

from mb_layers import activations, constraints, initializers, regularizers
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.initializers import VarianceScaling
from mb_layers.layers._dense import _maybe


class EinsumDense(Layer):
    """``einsum(equation, inputs, kernel) + bias``.

    Args:
        equation: ``"ab,bc->ac"`` style, optionally with ``...`` on the left
            (``"...b,bc->...c"``) or on the right of the input and output.
        output_shape: the output shape without the batch axis (an int for
            rank 2 outputs); None for axes taken from the input.
        activation: activation function; None: linear.
        bias_axes: letters of the output axes that get a bias.
        kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, kernel_constraint, bias_constraint: as in `Dense`.

    Example:

    >>> import numpy as np
    >>> layer = EinsumDense("ab,bc->ac", output_shape=64, bias_axes="c")
    >>> tuple(layer(np.ones((2, 32), "float32")).shape)
    (2, 64)
    """

    def __init__(
        self,
        equation,
        output_shape,
        activation=None,
        bias_axes=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if lora_rank is not None or quantization_config is not None:
            raise NotImplementedError("EinsumDense: LoRA and quantization are not supported yet.")
        self.equation = equation
        self.partial_output_shape = (
            (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        )
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.full_output_shape = None

    def build(self, input_shape):
        kernel_shape, bias_shape, full_output_shape, input_axes, output_axes = analyze_einsum(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape
        )
        self.full_output_shape = tuple(full_output_shape)
        self.input_spec = InputSpec(ndim=len(input_shape))
        kernel_initializer = self.kernel_initializer
        if isinstance(kernel_initializer, VarianceScaling) and (
            kernel_initializer.input_axes is None or kernel_initializer.output_axes is None
        ):
            config = kernel_initializer.get_config()
            config.update(
                seed=kernel_initializer.seed, input_axes=input_axes, output_axes=output_axes
            )
            kernel_initializer = type(kernel_initializer).from_config(config)
        self.kernel = self.add_weight(
            name="kernel",
            shape=tuple(kernel_shape),
            initializer=kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
        )
        if bias_shape is not None:
            self.bias = self.add_weight(
                name="bias",
                shape=tuple(bias_shape),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
            )
        else:
            self.bias = None

    def call(self, inputs, training=None):
        x = ops.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(
            analyze_einsum(self.equation, self.bias_axes, input_shape, self.partial_output_shape)[2]
        )

    def get_config(self):
        output_shape = self.partial_output_shape
        return {
            **super().get_config(),
            "output_shape": output_shape[0] if len(output_shape) == 1 else list(output_shape),
            "equation": self.equation,
            "activation": activations.serialize(self.activation),
            "bias_axes": self.bias_axes,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": _maybe(regularizers.serialize, self.kernel_regularizer),
            "bias_regularizer": _maybe(regularizers.serialize, self.bias_regularizer),
            "kernel_constraint": _maybe(constraints.serialize, self.kernel_constraint),
            "bias_constraint": _maybe(constraints.serialize, self.bias_constraint),
            "quantization_config": None,
        }


def analyze_einsum(equation, bias_axes, input_shape, output_shape):
    """``(kernel_shape, bias_shape, full_output_shape, input_axes, output_axes)``."""
    text = re.sub(r"\.\.\.", "0", equation)
    for pattern, left in (
        ("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
        ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
        ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False),
    ):
        match = re.match(pattern, text)
        if match:
            return _analyze(match.groups(), bias_axes, tuple(input_shape), output_shape, left)
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the form "
        "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."
    )


def _analyze(specs, bias_axes, input_shape, output_shape, left_elided):
    input_spec, weight_spec, output_spec = specs
    elided = len(input_shape) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, input_shape[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        output_shape.extend(input_shape[len(input_shape) - elided :])
    if left_elided:
        input_map = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_map = {d: i + elided for i, d in enumerate(output_spec)}
    else:
        input_map = {d: i for i, d in enumerate(input_spec)}
        output_map = {d: i for i, d in enumerate(output_spec)}
    for d in input_spec:
        if d in output_map:
            out_dim, in_dim = output_shape[output_map[d]], input_shape[input_map[d]]
            if out_dim is not None and out_dim != in_dim:
                raise ValueError(
                    f"Input shape and output shape do not match at shared dimension '{d}'. "
                    f"Input shape is {in_dim}, and output shape is {out_dim}."
                )
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(
                f"Dimension '{d}' of the output spec '{output_spec}' is in neither the input "
                f"spec '{input_spec}' nor the weight spec '{weight_spec}'."
            )
    weight_shape, input_axes, output_axes = [], [], []
    for i, d in enumerate(weight_spec):
        if d in output_map:
            weight_shape.append(output_shape[output_map[d]])
            output_axes.append(i)
        elif d in input_map:
            weight_shape.append(input_shape[input_map[d]])
            input_axes.append(i)
        else:
            raise ValueError(
                f"Weight dimension '{d}' has no match in the input spec '{input_spec}' or "
                f"the output spec '{output_spec}'."
            )
    bias_shape = None
    if bias_axes is not None:
        offset = elided if left_elided else 0
        sizes = {d: output_shape[i + offset] for i, d in enumerate(output_spec)}
        for d in bias_axes:
            if d not in output_spec:
                raise ValueError(
                    f"Bias dimension '{d}' was requested, but is not part of the output "
                    f"spec '{output_spec}'."
                )
        first = min(output_spec.find(d) for d in bias_axes)
        bias_shape = [sizes[d] if d in bias_axes else 1 for d in output_spec[first:]]
        if not left_elided:
            bias_shape.extend([1] * elided)
    return weight_shape, bias_shape, output_shape, input_axes, output_axes
