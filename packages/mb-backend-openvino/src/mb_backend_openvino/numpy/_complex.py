"""Complex parts, element-wise: real and imaginary parts, conjugate, angle."""

import math

from mb_backend_openvino._graph import const_like, opset
from mb_backend_openvino.numpy._common import is_nan, real_only, signbit_node, to_float, unary


def angle(x):
    x = real_only("angle", x)

    def build(a, d):
        zero = const_like(0, a)
        out = opset.select(signbit_node(a), const_like(math.pi, a), zero)
        return opset.select(is_nan(a), a, out)

    return unary("angle", build, x, compute=to_float)


def real(x):
    return real_only("real", x)


def imag(x):
    x = real_only("imag", x)
    return unary(
        "imag",
        lambda a, d: (
            opset.multiply(a, const_like(0, a))
            if d != "bool"
            else opset.logical_and(a, opset.logical_not(a))
        ),
        x,
    )


def conjugate(x):
    return real_only("conjugate", x)


def conj(x):
    return real_only("conj", x)
