"""NumPy reference implementations for ops NumPy itself does not have."""

from __future__ import annotations

import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def erf(x):
    return _erf(x)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softplus(x):
    return np.logaddexp(0.0, x)


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    return np.log(softmax(x, axis))


def elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(x))


def selu(x):
    return 1.0507009873554805 * elu(x, 1.6732632423543772)


def celu(x, alpha=1.0):
    return np.maximum(x, 0) + np.minimum(0, alpha * np.expm1(x / alpha))


def gelu(x, approximate=True):
    if approximate:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def hard_sigmoid(x):
    return np.clip(x / 6.0 + 0.5, 0.0, 1.0)


def sparse_plus(x):
    return np.where(x <= -1, 0.0, np.where(x >= 1, x, (x + 1) ** 2 / 4))


def glu(x, axis=-1):
    a, b = np.split(x, 2, axis=axis)
    return a * sigmoid(b)


def one_hot(x, num_classes, axis=-1):
    out = np.eye(num_classes, dtype="float32")[x]
    return np.moveaxis(out, -1, axis)


def conv2d(x, k, stride=1, padding="valid"):
    """channels_last 2D convolution (cross-correlation), dilation 1."""
    kh, kw = k.shape[:2]
    if padding == "same":
        h, w = x.shape[1:3]
        ph = max((math.ceil(h / stride) - 1) * stride + kh - h, 0)
        pw = max((math.ceil(w / stride) - 1) * stride + kw - w, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    h, w = x.shape[1:3]
    oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, k.shape[-1]))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride : i * stride + kh, j * stride : j * stride + kw, :]
            out[:, i, j, :] = np.tensordot(patch, k, axes=([1, 2, 3], [0, 1, 2]))
    return out


def pool2d(x, size, reduce):
    n, h, w, c = x.shape
    oh, ow = h // size, w // size
    x = x[:, : oh * size, : ow * size, :].reshape(n, oh, size, ow, size, c)
    return reduce(x, axis=(2, 4))


def binary_crossentropy(target, output, eps=1e-7):
    output = np.clip(output, eps, 1 - eps)
    return -(target * np.log(output) + (1 - target) * np.log(1 - output))


def categorical_crossentropy(target, output, axis=-1, eps=1e-7):
    output = output / np.sum(output, axis=axis, keepdims=True)
    output = np.clip(output, eps, 1 - eps)
    return -np.sum(target * np.log(output), axis=axis)


def attention(q, k, v):
    scale = 1.0 / np.sqrt(q.shape[-1])
    logits = np.einsum("bqhd,bkhd->bhqk", q, k) * scale
    return np.einsum("bhqk,bkhd->bqhd", softmax(logits, -1), v)


def segment(data, ids, num, reduce, init):
    out = np.full((num, *data.shape[1:]), init, dtype=np.float64)
    for i, s in enumerate(ids):
        out[s] = reduce(out[s], data[i])
    return out


def layer_norm(x, axis=-1, epsilon=1e-3):
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon)


def erfinv(y):
    """Inverse of erf by Newton's method (float64)."""
    y = np.asarray(y, dtype=np.float64)
    x = np.zeros_like(y)
    for _ in range(60):
        x = x - (erf(x) - y) / (2 / np.sqrt(np.pi) * np.exp(-(x**2)))
    return x


def conv_transpose2d(x, k, stride):
    """channels_last, padding "valid"; kernel (kh, kw, out_channels, in_channels)."""
    n, h, w, _ = x.shape
    kh, kw, out_c, _ = k.shape
    out = np.zeros((n, (h - 1) * stride + kh, (w - 1) * stride + kw, out_c))
    for i in range(h):
        for j in range(w):
            contribution = np.einsum("nc,hwoc->nhwo", x[:, i, j, :], k)
            out[:, i * stride : i * stride + kh, j * stride : j * stride + kw, :] += contribution
    return out


def depthwise_conv2d(x, k):
    """channels_last, valid; kernel (kh, kw, channels, multiplier)."""
    outs = []
    for c in range(x.shape[-1]):
        for m in range(k.shape[-1]):
            outs.append(conv2d(x[..., c : c + 1], k[:, :, c : c + 1, m : m + 1])[..., 0])
    return np.stack(outs, axis=-1)


def unfold(x, k):
    """torch-style unfold, stride 1, no padding: (N, C*k*k, L)."""
    n, c, h, w = x.shape
    cols = []
    for i in range(h - k + 1):
        for j in range(w - k + 1):
            cols.append(x[:, :, i : i + k, j : j + k].reshape(n, c * k * k))
    return np.stack(cols, axis=-1)


def sparsemax(x, axis=-1):
    z = np.moveaxis(x, axis, -1)
    s = -np.sort(-z, axis=-1)
    ks = np.arange(1, z.shape[-1] + 1)
    cumsum = np.cumsum(s, axis=-1)
    support = 1 + ks * s > cumsum
    k = support.sum(axis=-1, keepdims=True)
    tau = (np.take_along_axis(cumsum, k - 1, axis=-1) - 1) / k
    return np.moveaxis(np.maximum(z - tau, 0), -1, axis)


def scan(f, init, xs):
    carry, ys = init, []
    for x in xs:
        carry, y = f(carry, x)
        ys.append(y)
    return carry, np.stack(ys)
