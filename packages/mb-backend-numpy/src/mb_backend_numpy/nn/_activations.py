"""Activation functions; each keeps its input's dtype."""

import numpy as np
import scipy.special

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy.numpy._common import quiet


def _c(value, x):
    """A constant of ``x``'s dtype, so NumPy does not promote bfloat16/float16."""
    return np.asarray(value, dtype=x.dtype)


def relu(x):
    x = to_tensor(x)
    return np.maximum(x, _c(0, x))


def relu6(x):
    x = to_tensor(x)
    return np.minimum(np.maximum(x, _c(0, x)), _c(6, x))


@quiet
def sigmoid(x):
    x = to_tensor(x)
    if x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        return scipy.special.expit(x)
    return _c(1, x) / (_c(1, x) + np.exp(-x))


def sparse_sigmoid(x):
    x = to_tensor(x)
    return np.where(x <= -1, _c(0, x), np.where(x >= 1, _c(1, x), _c(0.5, x) * (x + _c(1, x))))


def tanh(x):
    return np.tanh(to_tensor(x))


def tanh_shrink(x):
    x = to_tensor(x)
    return x - np.tanh(x)


@quiet
def softplus(x):
    x = to_tensor(x)
    return np.logaddexp(x, _c(0, x))


def softsign(x):
    x = to_tensor(x)
    return x / (_c(1, x) + np.abs(x))


def soft_shrink(x, threshold=0.5):
    x = to_tensor(x)
    t = _c(threshold, x)
    return np.where(x > t, x - t, np.where(x < -t, x + t, _c(0, x)))


def sparse_plus(x):
    x = to_tensor(x)
    middle = _c(0.25, x) * np.square(x + _c(1, x))
    return np.where(x <= -1, _c(0, x), np.where(x < 1, middle, x))


def silu(x):
    x = to_tensor(x)
    return x * sigmoid(x)


def squareplus(x, b=4):
    x = to_tensor(x)
    return (x + np.sqrt(np.square(x) + _c(b, x))) / _c(2, x)


def log_sigmoid(x):
    x = to_tensor(x)
    return -softplus(-x)


def leaky_relu(x, negative_slope=0.2):
    x = to_tensor(x)
    return np.where(x >= 0, x, _c(negative_slope, x) * x)


def hard_sigmoid(x):
    x = to_tensor(x)
    y = x / _c(6, x) + _c(0.5, x)
    return np.clip(y, _c(0, x), _c(1, x)).astype(x.dtype, copy=False)


def hard_silu(x):
    x = to_tensor(x)
    return x * hard_sigmoid(x)


@quiet
def elu(x, alpha=1.0):
    x = to_tensor(x)
    return np.where(x >= 0, x, _c(alpha, x) * np.expm1(x))


def selu(x):
    x = to_tensor(x)
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return _c(scale, x) * elu(x, alpha)


def gelu(x, approximate=True):
    x = to_tensor(x)
    if approximate:
        k = _c(np.sqrt(2 / np.pi), x)
        inner = k * (x + _c(0.044715, x) * x * x * x)
        return x * _c(0.5, x) * (_c(1, x) + np.tanh(inner))
    erf = scipy.special.erf(x.astype("float32") / np.sqrt(2)).astype(x.dtype)
    return x * (erf + _c(1, x)) / _c(2, x)


@quiet
def celu(x, alpha=1.0):
    x = to_tensor(x)
    a = _c(alpha, x)
    return np.maximum(x, _c(0, x)) + a * np.expm1(np.minimum(x, _c(0, x)) / a)


def glu(x, axis=-1):
    x = to_tensor(x)
    if x.shape[axis] % 2 != 0:
        raise ValueError(
            f"glu splits `axis` in two halves, so its size must be even. "
            f"Received: x.shape={x.shape} with axis={axis}."
        )
    a, b = np.split(x, 2, axis)
    return (a * sigmoid(b)).astype(x.dtype, copy=False)


def hard_tanh(x):
    x = to_tensor(x)
    return np.clip(x, _c(-1, x), _c(1, x)).astype(x.dtype, copy=False)


def hard_shrink(x, threshold=0.5):
    x = to_tensor(x)
    return np.where(np.abs(x) > _c(threshold, x), x, _c(0, x))


def threshold(x, threshold, default_value):
    x = to_tensor(x)
    return np.where(x > threshold, x, _c(default_value, x))


@quiet
def softmax(x, axis=-1):
    x = to_tensor(x)
    axis = tuple(axis) if isinstance(axis, list) else axis
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@quiet
def log_softmax(x, axis=-1):
    x = to_tensor(x)
    axis = tuple(axis) if isinstance(axis, list) else axis
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def sparsemax(x, axis=-1):
    """Euclidean projection of ``x`` onto the probability simplex along ``axis``."""
    x = to_tensor(x)
    z = np.moveaxis(x, axis, -1).astype("float64")
    ordered = -np.sort(-z, axis=-1)
    cumulative = np.cumsum(ordered, axis=-1)
    rank = np.arange(1, z.shape[-1] + 1)
    support = 1 + rank * ordered > cumulative
    k = np.sum(support, axis=-1, keepdims=True)
    tau = (np.take_along_axis(cumulative, k - 1, axis=-1) - 1) / k
    out = np.maximum(z - tau, 0.0)
    return np.moveaxis(out, -1, axis).astype(x.dtype)
