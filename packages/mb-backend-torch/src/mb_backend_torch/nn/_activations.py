"""Activations and softmax-like functions: thin calls into ``torch.nn.functional``."""

import torch
import torch.nn.functional as tnn

from mb_backend_torch.numpy._common import Tensor, to_float


def _float(x):
    # The hot path: a float tensor goes straight through.
    if isinstance(x, Tensor) and x.dtype.is_floating_point:
        return x
    return to_float(x)


def relu(x):
    # torch.relu skips torch.nn.functional's argument handling (the hot path).
    if isinstance(x, Tensor) and x.dtype.is_floating_point:
        return torch.relu(x)
    return torch.relu(to_float(x))


def relu6(x):
    return tnn.relu6(_float(x))


def sigmoid(x):
    return torch.sigmoid(_float(x))


def tanh(x):
    return torch.tanh(_float(x))


def tanh_shrink(x):
    return tnn.tanhshrink(_float(x))


def softplus(x):
    return tnn.softplus(_float(x))


def softsign(x):
    return tnn.softsign(_float(x))


def soft_shrink(x, threshold=0.5):
    return tnn.softshrink(_float(x), lambd=threshold)


def hard_shrink(x, threshold=0.5):
    return tnn.hardshrink(_float(x), lambd=threshold)


def sparse_plus(x):
    x = _float(x)
    return torch.where(x <= -1, torch.zeros_like(x), torch.where(x < 1, 0.25 * (x + 1) ** 2, x))


def sparse_sigmoid(x):
    return torch.clamp(0.5 * (_float(x) + 1), 0.0, 1.0)


def silu(x):
    return tnn.silu(_float(x))


def squareplus(x, b=4):
    x = _float(x)
    return (x + torch.sqrt(x * x + b)) / 2


def log_sigmoid(x):
    return tnn.logsigmoid(_float(x))


def leaky_relu(x, negative_slope=0.2):
    return tnn.leaky_relu(_float(x), negative_slope=negative_slope)


def hard_sigmoid(x):
    return tnn.hardsigmoid(_float(x))


def hard_silu(x):
    return tnn.hardswish(_float(x))


def hard_tanh(x):
    return tnn.hardtanh(_float(x), min_val=-1.0, max_val=1.0)


def elu(x, alpha=1.0):
    return tnn.elu(_float(x), alpha=alpha)


def selu(x):
    return tnn.selu(_float(x))


def celu(x, alpha=1.0):
    return tnn.celu(_float(x), alpha=alpha)


def gelu(x, approximate=True):
    return tnn.gelu(_float(x), approximate="tanh" if approximate else "none")


def glu(x, axis=-1):
    return tnn.glu(_float(x), dim=axis)


def threshold(x, threshold, default_value):
    return tnn.threshold(_float(x), threshold, default_value)


def _softmax_like(fn, x, axis):
    x = _float(x)
    dtype = x.dtype
    if dtype is torch.float16 and x.device.type == "cpu":
        x = x.float()
    if axis is None:
        out = fn(x.reshape(-1), dim=0).reshape(x.shape)
    elif isinstance(axis, int):
        out = fn(x, dim=axis)
    else:
        # Several axes: move them last, flatten, normalize, restore.
        axes = sorted(a % x.ndim for a in axis)
        rest = [d for d in range(x.ndim) if d not in axes]
        moved = x.permute(rest + axes)
        flat = moved.reshape(*moved.shape[: len(rest)], -1)
        out = fn(flat, dim=-1).reshape(moved.shape)
        out = out.permute([(rest + axes).index(d) for d in range(x.ndim)])
    return out.to(dtype)


def softmax(x, axis=-1):
    return _softmax_like(tnn.softmax, x, axis)


def log_softmax(x, axis=-1):
    return _softmax_like(tnn.log_softmax, x, axis)


def sparsemax(x, axis=-1):
    x = _float(x)
    sorted_x, _ = torch.sort(x, dim=axis, descending=True)
    cumsum = torch.cumsum(sorted_x, dim=axis)
    shape = [1] * x.ndim
    shape[axis] = -1
    r = torch.arange(1, x.shape[axis] + 1, device=x.device, dtype=x.dtype).view(shape)
    support = sorted_x - (cumsum - 1) / r > 0
    k = support.sum(dim=axis, keepdim=True).to(x.dtype)
    top_sum = torch.where(support, sorted_x, torch.zeros_like(sorted_x)).sum(dim=axis, keepdim=True)
    tau = (top_sum - 1) / k
    return torch.clamp(x - tau, min=0.0)
