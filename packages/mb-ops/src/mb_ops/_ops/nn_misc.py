"""Normalization, encodings and attention of the nn op family."""

from __future__ import annotations

from typing import Any

from mb_ops import _config, _dtypes
from mb_ops import numpy as ew
from mb_ops._ops import numpy_reductions as red
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
    """Normalize ``x`` with given mean and variance, then scale and offset."""


def _moments_spec(op_name, x, axes, keepdims=False, synchronized=False) -> Any:
    out = reduce_shape(op_name, shape_of(x), axes, keepdims)
    dtype = float_dtype(std_dtype(x))
    return tensor(out, dtype), tensor(out, dtype)


@op(_moments_spec, "nn")
def moments(x, axes, keepdims=False, synchronized=False):
    """Mean and variance of ``x`` over ``axes``."""


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
    out = ew.multiply(ew.subtract(x, mean), ew.reciprocal(ew.sqrt(ew.add(variance, eps))))
    if gamma is not None:
        out = ew.multiply(out, gamma)
    if beta is not None:
        out = ew.add(out, beta)
    return cast(out, float_dtype(dtype))


@op(_layer_norm_spec, "nn", fallback=_layer_normalization)
def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """Normalize to zero mean and unit variance over ``axis``, then scale and shift."""


def _rms_normalization(x, scale=None, axis=-1, epsilon=None):
    eps = _config.epsilon() if epsilon is None else epsilon
    ms = red.mean(ew.square(x), axis=axis, keepdims=True)
    out = ew.multiply(x, ew.reciprocal(ew.sqrt(ew.add(ms, eps))))
    if scale is not None:
        out = ew.multiply(out, scale)
    return cast(out, float_dtype(std_dtype(x)))


@op(_float_like_spec, "nn", fallback=_rms_normalization)
def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """Divide by the root mean square over ``axis``, then scale."""


def _normalize(x, axis=-1, order=2, epsilon=None):
    eps = _config.epsilon() if epsilon is None else epsilon
    n = norm(x, ord=order, axis=axis, keepdims=True)
    return ew.divide(x, ew.maximum(n, eps))


@op(_float_like_spec, "nn", fallback=_normalize)
def normalize(x, axis=-1, order=2, epsilon=None):
    """Divide ``x`` by its norm along ``axis``."""


def _polar_spec(op_name: str, abs_: Any, angle: Any) -> Any:
    dtype = "complex128" if std_dtype(abs_) == "float64" else "complex64"
    return like(abs_, dtype)


def _polar(abs_, angle):
    complex_dtype = "complex128" if std_dtype(abs_) == "float64" else "complex64"
    real = cast(ew.multiply(abs_, ew.cos(angle)), complex_dtype)
    imag = cast(ew.multiply(abs_, ew.sin(angle)), complex_dtype)
    return ew.add(real, ew.multiply(imag, cast(1j, complex_dtype)))


@op(_polar_spec, "nn", fallback=_polar)
def polar(abs_, angle):
    """Complex numbers from magnitudes and angles."""


def _one_hot_spec(op_name, x, num_classes, axis=-1, dtype=None, sparse=False) -> Any:
    s = list(shape_of(x))
    ax = canonical_axis(op_name, axis, len(s) + 1)
    s.insert(ax, num_classes)
    return tensor(s, _dtypes.standardize_dtype(dtype), sparse=sparse)


@op(_one_hot_spec, "nn")
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encoding of integer classes."""


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
    """Multi-hot encoding of sets of integer classes."""


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
    """Scaled dot-product attention ``softmax(q k^T * scale + bias) v``."""
