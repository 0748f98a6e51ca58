"""Activation functions of the nn op family."""

from __future__ import annotations

from typing import Any

from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import canonical_axis, float_dtype, fmt, shape_of, std_dtype, tensor
from mb_ops._ops._specs import unary_float


@op(unary_float, "nn")
def relu(x):
    """Rectified linear unit: ``max(x, 0)``.

    Args:
        x: a tensor.

    Returns:
        ``max(x, 0)`` elementwise, in `x`'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.relu(ops.convert_to_tensor([-1.0, 0.0, 2.0]))).tolist()
    [0.0, 0.0, 2.0]
    """


@op(unary_float, "nn")
def relu6(x):
    """``min(max(x, 0), 6)``."""


@op(unary_float, "nn")
def sigmoid(x):
    """Logistic sigmoid."""


@op(unary_float, "nn")
def sparse_sigmoid(x):
    """Piecewise-linear sigmoid."""


@op(unary_float, "nn")
def softplus(x):
    """``log(exp(x) + 1)``."""


@op(unary_float, "nn")
def softsign(x):
    """``x / (abs(x) + 1)``."""


@op(unary_float, "nn")
def soft_shrink(x, threshold=0.5):
    """Soft shrinkage."""


@op(unary_float, "nn")
def sparse_plus(x):
    """SparsePlus activation."""


@op(unary_float, "nn")
def silu(x):
    """Sigmoid linear unit ``x * sigmoid(x)`` (Swish)."""


def _silu(x: Any) -> Any:
    return silu(x)


@op(unary_float, "nn", impl=_silu)
def swish(x):
    """Alias of ``silu``."""


@op(unary_float, "nn")
def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``."""


@op(unary_float, "nn")
def log_sigmoid(x):
    """Logarithm of the sigmoid."""


@op(unary_float, "nn")
def leaky_relu(x, negative_slope=0.2):
    """Leaky ReLU."""


@op(unary_float, "nn")
def hard_sigmoid(x):
    """Piecewise-linear approximation of the sigmoid."""


@op(unary_float, "nn")
def hard_silu(x):
    """``x * hard_sigmoid(x)``."""


def _hard_silu(x: Any) -> Any:
    return hard_silu(x)


@op(unary_float, "nn", impl=_hard_silu)
def hard_swish(x):
    """Alias of ``hard_silu``."""


@op(unary_float, "nn")
def elu(x, alpha=1.0):
    """Exponential linear unit."""


@op(unary_float, "nn")
def selu(x):
    """Scaled exponential linear unit."""


@op(unary_float, "nn")
def gelu(x, approximate=True):
    """Gaussian error linear unit."""


@op(unary_float, "nn")
def celu(x, alpha=1.0):
    """Continuously-differentiable exponential linear unit."""


def _glu_spec(op_name: str, x: Any, axis: int = -1) -> Any:
    shape = list(shape_of(x))
    ax = canonical_axis(op_name, axis, len(shape), tuple(shape))
    if shape[ax] is not None:
        if shape[ax] % 2:
            raise ValueError(
                f"{op_name}: axis {axis} of the input of shape {fmt(shape)} must have an even "
                "size (it is split in two halves)."
            )
        shape[ax] //= 2
    return tensor(shape, float_dtype(std_dtype(x)))


@op(_glu_spec, "nn")
def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` of the two halves along ``axis``."""


@op(unary_float, "nn")
def hard_tanh(x):
    """``clip(x, -1, 1)``."""


@op(unary_float, "nn")
def hard_shrink(x, threshold=0.5):
    """Hard shrinkage."""


@op(unary_float, "nn")
def tanh_shrink(x):
    """``x - tanh(x)``."""


@op(unary_float, "nn")
def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""


def _axis_float_spec(op_name: str, x: Any, axis: Any = -1) -> Any:
    shape = shape_of(x)
    if axis is not None:
        axes = axis if isinstance(axis, (list, tuple)) else [axis]
        for a in axes:
            canonical_axis(op_name, a, len(shape), shape)
    return tensor(shape, float_dtype(std_dtype(x)))


@op(_axis_float_spec, "nn")
def softmax(x, axis=-1):
    """Softmax along ``axis``.

    Args:
        x: a float tensor (of logits).
        axis: the axis along which the results sum to 1.

    Returns:
        ``exp(x) / sum(exp(x), axis)``, computed stably, in `x`'s dtype.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> probabilities = ops.softmax(ops.convert_to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
    >>> np.round(ops.convert_to_numpy(probabilities).astype("float64"), 4).tolist()
    [[0.09, 0.2447, 0.6652], [0.3333, 0.3333, 0.3333]]
    """


@op(_axis_float_spec, "nn")
def log_softmax(x, axis=-1):
    """Log-softmax along ``axis``."""


@op(_axis_float_spec, "nn")
def sparsemax(x, axis=-1):
    """Sparsemax along ``axis``."""
