"""Complex parts, element-wise: real and imaginary parts, conjugate, angle."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy.numpy._common import float_unary

angle = float_unary(np.angle)


def real(x):
    return np.real(to_tensor(x))


def imag(x):
    return np.imag(to_tensor(x))


def conjugate(x):
    return np.conjugate(to_tensor(x))


def conj(x):
    return conjugate(x)
