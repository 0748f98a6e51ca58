"""Normalization, encodings and attention of the nn op family."""

from __future__ import annotations

from typing import Any

from mb_ops import _config, _dtypes
from mb_ops._ops import numpy_arithmetic as ar
from mb_ops._ops import numpy_reductions as red
from mb_ops._ops import numpy_transcendental as tr
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    canonical_axes,
    canonical_axis,
    float_dtype,
    fmt,
    like,
    reduce_shape,
    shape_of,
    std_dtype,
    tensor,
)
from mb_ops._ops.core import cast
from mb_ops._ops.linalg import norm


def _batch_norm_spec(op_name, x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    s = shape_of(x)
    ax = canonical_axis(op_name, axis, len(s), s)
    for name, v in (("mean", mean), ("variance", variance), ("offset", offset), ("scale", scale)):
        if v is None:
            continue
        vs = shape_of(v)
        if len(vs) != 1 or (vs[0] is not None and s[ax] is not None and vs[0] != s[ax]):
            raise ValueError(
                f"{op_name}: {name} must have shape ({s[ax]},) to match axis {axis} of x "
                f"(shape {fmt(s)}); received {fmt(vs)}."
            )
    return like(x, float_dtype(std_dtype(x)))


@op(_batch_norm_spec, "nn")
def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """Normalize ``x`` with given mean and variance, then scale and offset.

    Args:
        x: a tensor.
        mean: the mean, a tensor of the size of ``x``'s ``axis`` (or broadcastable to ``x``).
        variance: the variance, shaped as ``mean``.
        axis: the feature axis of ``x`` that ``mean`` and ``variance`` run along.
        offset: None or a tensor added after scaling (beta).
        scale: None or a tensor the normalized values are multiplied by (gamma).
        epsilon: a small float added to the variance.

    Returns:
        ``(x - mean) / sqrt(variance + epsilon) * scale + offset``, shaped as ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    >>> mean, variance = ops.moments(x, axes=[0])
    >>> y = ops.batch_normalization(x, mean, variance, axis=-1, epsilon=0.0)
    >>> ops.convert_to_numpy(y).tolist()
    [[-1.0, -1.0], [1.0, 1.0]]
    """


def _moments_spec(op_name, x, axes, keepdims=False, synchronized=False) -> Any:
    out = reduce_shape(op_name, shape_of(x), axes, keepdims)
    dtype = float_dtype(std_dtype(x))
    return tensor(out, dtype), tensor(out, dtype)


@op(_moments_spec, "nn")
def moments(x, axes, keepdims=False, synchronized=False):
    """Mean and variance of ``x`` over ``axes``.

    Args:
        x: a tensor.
        axes: a list of the axes to reduce.
        keepdims: whether the reduced axes stay, with size 1.
        synchronized: whether to synchronize the statistics across replicas in distributed
            training (backends that do not distribute ignore it).

    Returns:
        A pair ``(mean, variance)`` (population variance), float tensors.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    >>> mean, variance = ops.moments(x, axes=[0])
    >>> ops.convert_to_numpy(mean).tolist(), ops.convert_to_numpy(variance).tolist()
    ([2.0, 4.0], [1.0, 4.0])
    """


def _float_like_spec(op_name: str, x: Any, *rest: Any) -> Any:
    return like(x, float_dtype(std_dtype(x)))


def _layer_norm_spec(op_name, x, gamma=None, beta=None, axis=-1, epsilon=None, kwargs=None):
    s = shape_of(x)
    canonical_axes(op_name, axis, len(s), s)
    return like(x, float_dtype(std_dtype(x)))


def _layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    eps = _config.epsilon() if epsilon is None else epsilon
    dtype = std_dtype(x)
    mean = red.mean(x, axis=axis, keepdims=True)
    variance = red.var(x, axis=axis, keepdims=True)
    out = ar.multiply(ar.subtract(x, mean), ar.reciprocal(ar.sqrt(ar.add(variance, eps))))
    if gamma is not None:
        out = ar.multiply(out, gamma)
    if beta is not None:
        out = ar.add(out, beta)
    return cast(out, float_dtype(dtype))


@op(_layer_norm_spec, "nn", fallback=_layer_normalization)
def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """Normalize to zero mean and unit variance over ``axis``, then scale and shift.

    Args:
        x: a tensor.
        gamma: None or a tensor the normalized values are multiplied by.
        beta: None or a tensor added after scaling.
        axis: the axis (or axes) whose statistics are used.
        epsilon: a small float added to the variance; None: ``config.epsilon()``.
        **kwargs: accepted for Keras compatibility (``rms_scaling``).

    Returns:
        A float tensor shaped as ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> y = ops.layer_normalization(np.array([[1.0, 2.0, 3.0]], "float32"), epsilon=0.0)
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[-1.2247, 0.0, 1.2247]]
    """


def _rms_normalization(x, scale=None, axis=-1, epsilon=None):
    eps = _config.epsilon() if epsilon is None else epsilon
    ms = red.mean(ar.square(x), axis=axis, keepdims=True)
    out = ar.multiply(x, ar.reciprocal(ar.sqrt(ar.add(ms, eps))))
    if scale is not None:
        out = ar.multiply(out, scale)
    return cast(out, float_dtype(std_dtype(x)))


@op(_float_like_spec, "nn", fallback=_rms_normalization)
def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """Divide by the root mean square over ``axis``, then scale.

    Args:
        x: a tensor.
        scale: None or a tensor the normalized values are multiplied by.
        axis: the axis (or axes) whose root mean square is used.
        epsilon: a small float added to the mean square; None: ``config.epsilon()``.

    Returns:
        ``x / sqrt(mean(x**2, axis) + epsilon) * scale``, shaped as ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> y = ops.rms_normalization(np.array([[3.0, 4.0]], "float32"), epsilon=0.0)
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[0.8485, 1.1314]]
    """


def _normalize(x, axis=-1, order=2, epsilon=None):
    eps = _config.epsilon() if epsilon is None else epsilon
    n = norm(x, ord=order, axis=axis, keepdims=True)
    return ar.divide(x, ar.maximum(n, eps))


@op(_float_like_spec, "nn", fallback=_normalize)
def normalize(x, axis=-1, order=2, epsilon=None):
    """Divide ``x`` by its norm along ``axis``.

    Args:
        x: a tensor.
        axis: the axis along which the norm is taken.
        order: the order of the norm (2: Euclidean, 1: sum of absolute values).
        epsilon: the smallest norm divided by (avoids division by zero); None:
            ``config.epsilon()``.

    Returns:
        A float tensor shaped as ``x`` whose slices along ``axis`` have norm 1.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[3.0, 4.0]], "float32")
    >>> ops.convert_to_numpy(ops.normalize(x)).astype("float64").round(4).tolist()
    [[0.6, 0.8]]
    >>> ops.convert_to_numpy(ops.normalize(x, order=1)).astype("float64").round(4).tolist()
    [[0.4286, 0.5714]]
    """


def _polar_spec(op_name: str, abs_: Any, angle: Any) -> Any:
    dtype = "complex128" if std_dtype(abs_) == "float64" else "complex64"
    return like(abs_, dtype)


def _polar(abs_, angle):
    complex_dtype = "complex128" if std_dtype(abs_) == "float64" else "complex64"
    real = cast(ar.multiply(abs_, tr.cos(angle)), complex_dtype)
    imag = cast(ar.multiply(abs_, tr.sin(angle)), complex_dtype)
    return ar.add(real, ar.multiply(imag, cast(1j, complex_dtype)))


@op(_polar_spec, "nn", fallback=_polar)
def polar(abs_, angle):
    """Complex numbers from magnitudes and angles: ``abs_ * (cos(angle) + i sin(angle))``.

    Args:
        abs_: a float tensor of magnitudes.
        angle: a float tensor of angles, in radians.

    Returns:
        A complex tensor (complex64, complex128 for float64 input) of the broadcast shape.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> z = ops.convert_to_numpy(ops.polar(np.array([1.0, 2.0]), np.array([0.0, np.pi / 2])))
    >>> bool(np.allclose(z, [1.0, 2.0j]))
    True
    """


def _one_hot_spec(op_name, x, num_classes, axis=-1, dtype=None, sparse=False) -> Any:
    s = list(shape_of(x))
    ax = canonical_axis(op_name, axis, len(s) + 1)
    s.insert(ax, num_classes)
    return tensor(s, _dtypes.standardize_dtype(dtype), sparse=sparse)


@op(_one_hot_spec, "nn")
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encoding of integer classes.

    Args:
        x: an integer tensor of class indices.
        num_classes: the number of classes (the size of the new axis).
        axis: where the new class axis goes.
        dtype: the dtype of the result; None: ``config.floatx()``.
        sparse: whether to return a sparse tensor (backends without sparse tensors return a
            dense one).

    Returns:
        A tensor with one more axis than ``x``: 1 at each index, 0 elsewhere (an index out
        of range gives all zeros).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.one_hot(np.array([0, 2]), 3)).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    """


def _multi_hot_spec(
    op_name, inputs, num_classes=None, axis=-1, dtype=None, sparse=False, kwargs=None
) -> Any:
    if num_classes is None:
        num_classes = (kwargs or {}).get("num_tokens")
    if num_classes is None:
        raise ValueError(f"{op_name}: num_classes is required.")
    s = list(shape_of(inputs))
    if len(s) > 1:
        s = s[:-1]
        s.insert(canonical_axis(op_name, axis, len(s) + 1), num_classes)
    else:
        s = [num_classes]
    return tensor(s, _dtypes.standardize_dtype(dtype), sparse=sparse)


@op(_multi_hot_spec, "nn")
def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encoding of sets of integer classes.

    Args:
        inputs: an integer tensor whose last axis holds the classes of one sample.
        num_classes: the number of classes.
        axis: where the class axis goes.
        dtype: the dtype of the result; None: ``config.floatx()``.
        sparse: whether to return a sparse tensor.
        **kwargs: ``num_tokens``, Keras's old name of ``num_classes``.

    Returns:
        A tensor ``(..., num_classes)``: 1 for each class present in a sample, else 0.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.multi_hot(np.array([[0, 2], [1, 1]]), 3)).tolist()
    [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """


def _attention_spec(
    op_name,
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
) -> Any:
    q, k, v = shape_of(query), shape_of(key), shape_of(value)
    if len(q) not in (3, 4) or len(k) != len(q) or len(v) != len(q):
        raise ValueError(
            f"{op_name}: query, key and value must all be (batch, seq, [heads,] dim); received "
            f"{fmt(q)}, {fmt(k)}, {fmt(v)}."
        )
    if q[-1] is not None and k[-1] is not None and q[-1] != k[-1]:
        raise ValueError(
            f"{op_name}: query and key must have the same last axis, received {fmt(q)} and "
            f"{fmt(k)}."
        )
    return tensor((*q[:-1], v[-1]), std_dtype(query))


@op(_attention_spec, "nn")
def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
):
    """Scaled dot-product attention ``softmax(q k^T * scale + bias) v``.

    Args:
        query: a tensor ``(batch, q_len, num_heads, head_dim)``.
        key: a tensor ``(batch, kv_len, num_kv_heads, head_dim)``; ``num_heads`` must be a
            multiple of ``num_kv_heads`` (grouped-query attention).
        value: a tensor ``(batch, kv_len, num_kv_heads, head_dim_v)``.
        bias: None or a tensor added to the logits, broadcastable to
            ``(batch, num_heads, q_len, kv_len)``.
        mask: None or a boolean tensor of that shape: False positions are not attended to.
        scale: the logits' scale; None: ``1 / sqrt(head_dim)``.
        is_causal: whether position ``i`` attends only to positions ``<= i``.
        flash_attention: whether to use a fused kernel; None: where available.
        attn_logits_soft_cap: None or a float ``c``: logits become ``c * tanh(logits / c)``.

    Returns:
        A tensor ``(batch, q_len, num_heads, head_dim_v)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> q = np.array([[1.0, 0.0], [0.0, 1.0]], "float32").reshape(1, 2, 1, 2)
    >>> v = np.array([1.0, 3.0], "float32").reshape(1, 2, 1, 1)
    >>> out = ops.dot_product_attention(q, q, v)
    >>> ops.convert_to_numpy(out).ravel().astype("float64").round(4).tolist()
    [1.6605, 2.3395]
    >>> out = ops.dot_product_attention(q, q, v, is_causal=True)
    >>> ops.convert_to_numpy(out).ravel().astype("float64").round(4).tolist()
    [1.0, 2.3395]
    """
