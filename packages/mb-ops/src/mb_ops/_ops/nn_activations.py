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
    """``min(max(x, 0), 6)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``min(max(x, 0), 6)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 3.0, 8.0])
    >>> ops.convert_to_numpy(ops.relu6(x)).tolist()
    [0.0, 3.0, 6.0]
    """


@op(unary_float, "nn")
def sigmoid(x):
    """Logistic sigmoid.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``1 / (1 + exp(-x))`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.sigmoid(x)).astype("float64").round(4).tolist()
    [0.2689, 0.5, 0.8808]
    """


@op(unary_float, "nn")
def sparse_sigmoid(x):
    """Piecewise-linear sigmoid.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        0 where ``x <= -1``, 1 where ``x >= 1``, else ``(x + 1) / 2``; elementwise, in `x`'s float
        dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
    >>> ops.convert_to_numpy(ops.sparse_sigmoid(x)).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """


@op(unary_float, "nn")
def softplus(x):
    """``log(exp(x) + 1)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``log(exp(x) + 1)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 1.0])
    >>> ops.convert_to_numpy(ops.softplus(x)).astype("float64").round(4).tolist()
    [0.3133, 0.6931, 1.3133]
    """


@op(unary_float, "nn")
def softsign(x):
    """``x / (abs(x) + 1)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``x / (abs(x) + 1)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-3.0, 0.0, 1.0])
    >>> ops.convert_to_numpy(ops.softsign(x)).tolist()
    [-0.75, 0.0, 0.5]
    """


@op(unary_float, "nn")
def soft_shrink(x, threshold=0.5):
    """Soft shrinkage.

    Args:
        x: a float tensor (ints are cast to floats).
        threshold: the half-width of the band set to 0.

    Returns:
        ``x - threshold`` where ``x > threshold``, ``x + threshold`` where ``x < -threshold``, else
        0; elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2.0, 0.25, 1.5])
    >>> ops.convert_to_numpy(ops.soft_shrink(x)).tolist()
    [-1.5, 0.0, 1.0]
    >>> ops.convert_to_numpy(ops.soft_shrink(x, threshold=1.0)).tolist()
    [-1.0, 0.0, 0.5]
    """


@op(unary_float, "nn")
def sparse_plus(x):
    """SparsePlus activation.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        0 where ``x <= -1``, ``x`` where ``x >= 1``, else ``(x + 1)**2 / 4``; elementwise, in `x`'s
        float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2.0, 0.0, 0.5, 2.0])
    >>> ops.convert_to_numpy(ops.sparse_plus(x)).tolist()
    [0.0, 0.25, 0.5625, 2.0]
    """


@op(unary_float, "nn")
def silu(x):
    """Sigmoid linear unit ``x * sigmoid(x)`` (Swish).

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``x * sigmoid(x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.silu(x)).astype("float64").round(4).tolist()
    [-0.2689, 0.0, 1.7616]
    """


def _silu(x: Any) -> Any:
    return silu(x)


@op(unary_float, "nn", impl=_silu)
def swish(x):
    """Alias of ``silu``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``x * sigmoid(x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.swish(x)).astype("float64").round(4).tolist()
    [-0.2689, 0.0, 1.7616]
    """


@op(unary_float, "nn")
def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``.

    Args:
        x: a float tensor (ints are cast to floats).
        b: the smoothness (``b = 0`` gives ReLU).

    Returns:
        ``(x + sqrt(x**2 + b)) / 2`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 3.0])
    >>> ops.convert_to_numpy(ops.squareplus(x)).astype("float64").round(4).tolist()
    [0.618, 1.0, 3.3028]
    >>> ops.convert_to_numpy(ops.squareplus(x, b=0)).tolist()
    [0.0, 0.0, 3.0]
    """


@op(unary_float, "nn")
def log_sigmoid(x):
    """Logarithm of the sigmoid.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``log(sigmoid(x)) = -softplus(-x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.log_sigmoid(x)).astype("float64").round(4).tolist()
    [-1.3133, -0.6931, -0.1269]
    """


@op(unary_float, "nn")
def leaky_relu(x, negative_slope=0.2):
    """Leaky ReLU.

    Args:
        x: a float tensor (ints are cast to floats).
        negative_slope: the slope for negative inputs.

    Returns:
        ``x`` where ``x >= 0``, else ``negative_slope * x``; elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2.0, 0.0, 3.0])
    >>> ops.convert_to_numpy(ops.leaky_relu(x)).astype("float64").round(4).tolist()
    [-0.4, 0.0, 3.0]
    >>> ops.convert_to_numpy(ops.leaky_relu(x, negative_slope=0.5)).tolist()
    [-1.0, 0.0, 3.0]
    """


@op(unary_float, "nn")
def hard_sigmoid(x):
    """Piecewise-linear approximation of the sigmoid.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``relu6(x + 3) / 6``: 0 below -3, 1 above 3, linear between; elementwise, in `x`'s float
        dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-4.0, 0.0, 1.5, 4.0])
    >>> ops.convert_to_numpy(ops.hard_sigmoid(x)).tolist()
    [0.0, 0.5, 0.75, 1.0]
    """


@op(unary_float, "nn")
def hard_silu(x):
    """``x * hard_sigmoid(x)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``x * relu6(x + 3) / 6`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.0, 1.5, 4.0])
    >>> ops.convert_to_numpy(ops.hard_silu(x)).tolist()
    [-0.375, 0.0, 1.125, 4.0]
    """


def _hard_silu(x: Any) -> Any:
    return hard_silu(x)


@op(unary_float, "nn", impl=_hard_silu)
def hard_swish(x):
    """Alias of ``hard_silu``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``x * relu6(x + 3) / 6`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.5, 0.0, 1.5, 4.0])
    >>> ops.convert_to_numpy(ops.hard_swish(x)).tolist()
    [-0.375, 0.0, 1.125, 4.0]
    """


@op(unary_float, "nn")
def elu(x, alpha=1.0):
    """Exponential linear unit.

    Args:
        x: a float tensor (ints are cast to floats).
        alpha: the scale of the negative part (its limit is ``-alpha``).

    Returns:
        ``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``; elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.elu(x)).astype("float64").round(4).tolist()
    [-0.6321, 0.0, 2.0]
    >>> ops.convert_to_numpy(ops.elu(x, alpha=2.0)).astype("float64").round(4).tolist()
    [-1.2642, 0.0, 2.0]
    """


@op(unary_float, "nn")
def selu(x):
    """Scaled exponential linear unit.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``scale * elu(x, alpha)`` with ``scale ~ 1.0507`` and ``alpha ~ 1.6733``; elementwise, in
        `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 1.0])
    >>> ops.convert_to_numpy(ops.selu(x)).astype("float64").round(4).tolist()
    [-1.1113, 0.0, 1.0507]
    """


@op(unary_float, "nn")
def gelu(x, approximate=True):
    """Gaussian error linear unit.

    Args:
        x: a float tensor (ints are cast to floats).
        approximate: use the tanh approximation instead of the exact ``erf`` form.

    Returns:
        ``x * P(X <= x)`` for a standard normal ``X`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 1.0])
    >>> ops.convert_to_numpy(ops.gelu(x)).astype("float64").round(4).tolist()
    [-0.1588, 0.0, 0.8412]
    >>> ops.convert_to_numpy(ops.gelu(x, approximate=False)).astype("float64").round(4).tolist()
    [-0.1587, 0.0, 0.8413]
    """


@op(unary_float, "nn")
def celu(x, alpha=1.0):
    """Continuously-differentiable exponential linear unit.

    Args:
        x: a float tensor (ints are cast to floats).
        alpha: the scale of the negative part.

    Returns:
        ``x`` where ``x > 0``, else ``alpha * (exp(x / alpha) - 1)``; elementwise, in `x`'s float
        dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.celu(x)).astype("float64").round(4).tolist()
    [-0.6321, 0.0, 2.0]
    >>> ops.convert_to_numpy(ops.celu(x, alpha=2.0)).astype("float64").round(4).tolist()
    [-0.7869, 0.0, 2.0]
    """


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
    """Gated linear unit: ``a * sigmoid(b)`` of the two halves along ``axis``.

    Args:
        x: a float tensor whose `axis` has an even size.
        axis: the axis to split in two.

    Returns:
        ``a * sigmoid(b)`` for the halves ``a, b`` of `x` along `axis`; that axis halves in size.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0, 0.0, 0.0], [4.0, 6.0, 100.0, -100.0]])
    >>> ops.convert_to_numpy(ops.glu(x)).astype("float64").round(4).tolist()
    [[0.5, 1.0], [4.0, 0.0]]
    """


@op(unary_float, "nn")
def hard_tanh(x):
    """``clip(x, -1, 1)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``clip(x, -1, 1)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2.0, 0.5, 3.0])
    >>> ops.convert_to_numpy(ops.hard_tanh(x)).tolist()
    [-1.0, 0.5, 1.0]
    """


@op(unary_float, "nn")
def hard_shrink(x, threshold=0.5):
    """Hard shrinkage.

    Args:
        x: a float tensor (ints are cast to floats).
        threshold: the half-width of the band set to 0.

    Returns:
        ``x`` where ``abs(x) > threshold``, else 0; elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2.0, 0.25, 1.5])
    >>> ops.convert_to_numpy(ops.hard_shrink(x)).tolist()
    [-2.0, 0.0, 1.5]
    >>> ops.convert_to_numpy(ops.hard_shrink(x, threshold=1.5)).tolist()
    [-2.0, 0.0, 0.0]
    """


@op(unary_float, "nn")
def tanh_shrink(x):
    """``x - tanh(x)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``x - tanh(x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 2.0])
    >>> ops.convert_to_numpy(ops.tanh_shrink(x)).astype("float64").round(4).tolist()
    [-0.2384, 0.0, 1.036]
    """


@op(unary_float, "nn")
def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``.

    Args:
        x: a float tensor (ints are cast to floats).
        threshold: the value `x` must exceed to be kept.
        default_value: the value put in place of the others.

    Returns:
        ``x`` where ``x > threshold``, else `default_value`; elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.5, 2.0])
    >>> ops.convert_to_numpy(ops.threshold(x, 1.0, 0.0)).tolist()
    [0.0, 0.0, 2.0]
    >>> ops.convert_to_numpy(ops.threshold(x, 0.0, -9.0)).tolist()
    [-9.0, 0.5, 2.0]
    """


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
    """Log-softmax along ``axis``.

    Args:
        x: a float tensor (of logits).
        axis: the axis along which ``exp`` of the results sums to 1.

    Returns:
        ``x - logsumexp(x, axis)``, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    >>> ops.convert_to_numpy(ops.log_softmax(x)).astype("float64").round(4).tolist()
    [[-2.4076, -1.4076, -0.4076], [-1.0986, -1.0986, -1.0986]]
    """


@op(_axis_float_spec, "nn")
def sparsemax(x, axis=-1):
    """Sparsemax along ``axis``.

    Args:
        x: a float tensor (of logits).
        axis: the axis along which the results sum to 1.

    Returns:
        The Euclidean projection of `x` onto the simplex along `axis`: like softmax, but with exact
        zeros, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0, 4.0], [1.0, 1.5, 0.0]])
    >>> ops.convert_to_numpy(ops.sparsemax(x)).tolist()
    [[0.0, 0.0, 1.0], [0.25, 0.75, 0.0]]
    """
