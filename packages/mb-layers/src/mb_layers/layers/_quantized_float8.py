"""float8 training for the layers with a kernel (Dense, EinsumDense), as Keras 3.15 does it.

float8 mode keeps the float kernel (trainable) and runs the product on float8 values:
the inputs and the kernel go through ``float8_e4m3fn`` and back, and the gradient of the
output through ``float8_e5m2`` and back, each divided by its own scale. The scales follow
*delayed scaling* (NVIDIA Transformer Engine's recipe): each of the three tensors keeps
the history of its largest magnitude over the last ``amax_history_length`` training steps
(``<name>_amax_history``), and its scale (``<name>_scale``) maps the largest value of that
history onto the top of the float8 range.

Both are updated by the optimizer: the custom gradients below return, as the "gradient"
of each scale and history, its next value, and the variables are created with
``overwrite_with_gradient=True`` so that optimizers assign it instead of stepping. Out of
training (``training`` falsy) the scales stay as they are; a Dense layer then multiplies
the float8 values through the backend's ``float8_matmul`` kernel (``torch._scaled_mm`` on
a GPU that has it, an fp8 ``dot_general`` under XLA, a float32 product elsewhere).
"""

import ml_dtypes

from mb_layers._ops import ops
from mb_ops.quantizers import (
    compute_float8_amax_history,
    compute_float8_scale,
    float8_matmul,
    quantize_and_dequantize,
)

FORWARD_DTYPE = "float8_e4m3fn"
BACKWARD_DTYPE = "float8_e5m2"
_FORWARD_MAX = float(ml_dtypes.finfo(FORWARD_DTYPE).max)
_BACKWARD_MAX = float(ml_dtypes.finfo(BACKWARD_DTYPE).max)

# Keras 3.15's default when the layer's policy is not a QuantizedFloat8DTypePolicy.
DEFAULT_AMAX_HISTORY_LENGTH = 1024

SCALED = ("inputs", "kernel", "outputs_grad")


def build(layer):
    """Adds the six float32 variables of float8 training to `layer`, in Keras's order:
    ``inputs_scale``, ``inputs_amax_history``, ``kernel_scale``, ``kernel_amax_history``,
    ``outputs_grad_scale``, ``outputs_grad_amax_history`` (scales start at one, histories
    at zero; all trainable and overwritten with their gradient)."""
    length = getattr(layer._own_dtype_policy(), "amax_history_length", None)
    if length is None:
        length = DEFAULT_AMAX_HISTORY_LENGTH
    common = {
        "dtype": "float32",
        "trainable": True,
        "autocast": False,
        "overwrite_with_gradient": True,
    }
    for name in SCALED:
        scale = layer.add_weight(name=f"{name}_scale", shape=(), initializer="ones", **common)
        history = layer.add_weight(
            name=f"{name}_amax_history", shape=(length,), initializer="zeros", **common
        )
        setattr(layer, f"{name}_scale", scale)
        setattr(layer, f"{name}_amax_history", history)
    layer._is_quantized = True


def quantize(layer, config):
    """``layer.quantize("float8")``: the float kernel stays; the scaling variables are
    added and the policy becomes ``"float8_from_<source>"``."""
    layer.quantization_config = config
    layer.quantized_build(tuple(layer._kernel.shape), "float8", config)
    layer._set_quantized_policy("float8", config)


def _state(layer, name):
    return (
        ops.convert_to_tensor(getattr(layer, f"{name}_scale")),
        ops.convert_to_tensor(getattr(layer, f"{name}_amax_history")),
    )


def _forward_qdq(compute_dtype, training):
    """Through ``float8_e4m3fn`` and back; the gradient passes straight through, and the
    scale and history get their next values (in training) as their gradients."""

    @ops.custom_gradient
    def qdq(x, scale, amax_history):
        if training:
            new_scale = compute_float8_scale(
                ops.max(amax_history, axis=0), scale, ops.cast(_FORWARD_MAX, "float32")
            )
            new_history = compute_float8_amax_history(x, amax_history)
        else:
            new_scale = new_history = None

        def grad(*args, upstream=None, variables=None):
            if upstream is None:
                (upstream,) = args
            return upstream, new_scale, new_history

        return quantize_and_dequantize(x, scale, FORWARD_DTYPE, compute_dtype), grad

    return qdq


def _backward_qdq(compute_dtype):
    """Identity forward; the output's gradient goes through ``float8_e5m2`` and back, and
    the scale and history of that gradient get their next values."""

    @ops.custom_gradient
    def qdq(x, scale, amax_history):
        def grad(*args, upstream=None, variables=None):
            if upstream is None:
                (upstream,) = args
            new_scale = compute_float8_scale(
                ops.max(amax_history, axis=0), scale, ops.cast(_BACKWARD_MAX, "float32")
            )
            new_history = compute_float8_amax_history(upstream, amax_history)
            upstream = quantize_and_dequantize(upstream, scale, BACKWARD_DTYPE, compute_dtype)
            return upstream, new_scale, new_history

        return x, grad

    return qdq


def _to_float8(x, scale, compute_dtype):
    limit = ops.cast(_FORWARD_MAX, compute_dtype)
    x = ops.divide(x, ops.cast(scale, compute_dtype))
    return ops.cast(ops.clip(x, -limit, limit), FORWARD_DTYPE)


def product(layer, inputs, training, contract=None):
    """``contract(inputs, kernel)`` on float8 values (``ops.matmul`` when None).

    In training (or with a `contract` other than a plain matmul) the two operands are
    quantized and dequantized around the product, as Keras does; otherwise the float8
    operands go to the backend's ``float8_matmul`` with their scales.
    """
    if layer.lora_enabled:
        raise NotImplementedError(
            f"Layer '{layer.name}': float8 training does not support LoRA (as in Keras 3.15). "
            "Disable LoRA or quantize the layer to 'int8' / 'int4' instead."
        )
    compute = layer.compute_dtype
    inputs_scale, inputs_history = _state(layer, "inputs")
    kernel = ops.convert_to_tensor(layer._kernel)
    kernel_scale, kernel_history = _state(layer, "kernel")
    if not training and contract is None:
        x = float8_matmul(
            _to_float8(inputs, inputs_scale, compute),
            _to_float8(kernel, kernel_scale, compute),
            inputs_scale,
            kernel_scale,
            output_dtype=compute,
        )
    else:
        forward = _forward_qdq(compute, training)
        lhs = forward(inputs, inputs_scale, inputs_history)
        rhs = forward(kernel, kernel_scale, kernel_history)
        x = ops.matmul(lhs, rhs) if contract is None else contract(lhs, rhs)
    # Right after the product, so that the gradient's qdq sits next to its backward product.
    return _backward_qdq(compute)(x, *_state(layer, "outputs_grad"))


def finish(layer, x):
    """Adds the bias (rounded through bfloat16 under a float32 policy, as Keras does for
    XLA's fused bias-add) and applies the activation."""
    if layer.bias is not None:
        bias = layer.bias
        if layer.compute_dtype == "float32":
            bias = ops.cast(ops.cast(bias, "bfloat16"), "float32")
        x = ops.add(x, bias)
    if layer.activation is not None:
        x = layer.activation(x)
    return x
