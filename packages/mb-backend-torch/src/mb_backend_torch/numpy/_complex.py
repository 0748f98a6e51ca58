"""Complex parts, element-wise: real and imaginary parts, conjugate, angle."""

import torch

from mb_backend_torch.numpy._common import t, to_float


def conjugate(x):
    x = t(x)
    if not x.dtype.is_complex:
        return x
    return torch.conj(x).resolve_conj()


def conj(x):
    return conjugate(x)


def real(x):
    x = t(x)
    return torch.real(x) if x.dtype.is_complex else x


def imag(x):
    x = t(x)
    if x.dtype.is_complex:
        return torch.imag(x)
    return torch.zeros_like(x)


def angle(x):
    x = t(x)
    if x.dtype.is_complex:
        return torch.angle(x)
    x = to_float(x)
    if x.dtype is torch.float16 and x.device.type == "cpu":
        return torch.angle(x.to(torch.float32)).to(torch.float16)
    return torch.angle(x)
