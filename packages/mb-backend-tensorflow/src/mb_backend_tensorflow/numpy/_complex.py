"""Complex parts, element-wise: real and imaginary parts, conjugate, angle."""

import math as pymath

import tensorflow as tf

from mb_backend_tensorflow.numpy._common import tensor, to_float


def angle(x):
    x = tensor(x)
    if x.dtype.is_complex:
        return tf.math.angle(x)
    x = to_float(x)
    return tf.where(x < 0, tf.constant(pymath.pi, x.dtype), tf.zeros_like(x))


def real(x):
    x = tensor(x)
    return tf.math.real(x) if x.dtype.is_complex else x


def imag(x):
    x = tensor(x)
    return tf.math.imag(x) if x.dtype.is_complex else tf.zeros_like(x)


def conjugate(x):
    x = tensor(x)
    return tf.math.conj(x) if x.dtype.is_complex else x


def conj(x):
    return conjugate(x)
