"""Shared recipes of the numpy module: element-wise ops and their result dtypes."""

import math

import numpy as np
import openvino as ov

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import abs_node, const_like, cv, opset, promote, run
from mb_backend_openvino._tensor import OpenVINOTensor


def binary(name, fn, x1, x2, extra=(), out=None):
    """``fn(a, b)`` on both operands converted to their promoted dtype (``out`` casts)."""
    if type(x1) is OpenVINOTensor and type(x2) is OpenVINOTensor and not extra:
        dtype = x1.dtype
        a, b = x1, x2
        if x2.dtype != dtype:
            (a, b), dtype = promote(x1, x2)
    else:
        (a, b), dtype = promote(x1, x2, extra=extra)
    result = dtype if out is None else out(dtype)

    def build(p, q):
        return cv(fn(cv(p, dtype), cv(q, dtype), dtype), result)

    return run((name, dtype, result), build, a, b)


def unary(name, fn, x, compute=None, out=None):
    """``fn(a)`` with ``a`` converted to ``compute(dtype)`` and the result to ``out(dtype)``."""
    x = to_tensor(x)
    dtype = x.dtype
    work = dtype if compute is None else compute(dtype)
    result = work if out is None else out(dtype)

    def build(p):
        return cv(fn(cv(p, work), work), result)

    return run((name, work, result), build, x)


def to_float(dtype):
    """Keras's rule for float-valued unary ops: ints and bools give floatx."""
    return _dtypes.float_dtype(dtype)


def int_to_floatx(dtype):
    if "int" in dtype or dtype == "bool":
        return _dtypes.floatx()
    return dtype


def is_nan(node):
    return opset.is_nan(node).output(0)


def is_float(node):
    return node.get_element_type().is_real()


def log1p_node(x):
    """``log(1 + x)`` accurate for small ``x`` (the correction of Goldberg's trick)."""
    one = const_like(1, x)
    u = opset.add(one, x)
    log_u = opset.log(u)
    # log(u) * x / (u - 1) compensates the rounding of 1 + x; u == 1 means x is tiny.
    du = opset.subtract(u, one)
    ratio = opset.divide(x, opset.select(opset.equal(du, const_like(0, x)), one, du))
    fixed = opset.multiply(log_u, ratio)
    return opset.select(opset.equal(du, const_like(0, x)), x, fixed).output(0)


def expm1_node(x):
    """``exp(x) - 1`` accurate for small ``x`` (Kahan's trick)."""
    one = const_like(1, x)
    u = opset.exp(x)
    um1 = opset.subtract(u, one)
    log_u = opset.log(u)
    safe = opset.select(opset.equal(log_u, const_like(0, x)), one, log_u)
    fixed = opset.divide(opset.multiply(um1, x), safe)
    small = opset.equal(u, one)
    big = opset.greater(abs_node(x), const_like(0.5, x))
    out = opset.select(big, um1, fixed)
    return opset.select(small, x, out).output(0)


def atan2_node(y, x):
    """``arctan2(y, x)`` built from ``atan`` with the quadrant rules of IEEE/NumPy."""
    zero = const_like(0, x)
    pi = const_like(math.pi, x)
    half_pi = const_like(math.pi / 2, x)
    safe_x = opset.select(opset.equal(x, zero), const_like(1, x), x)
    base = opset.atan(opset.divide(y, safe_x))
    # signbit-aware: -0.0 counts as negative, as in NumPy.
    y_neg = signbit_node(y)
    x_neg = signbit_node(x)
    pi_signed = opset.select(y_neg, opset.negative(pi), pi)
    out = opset.select(x_neg, opset.add(base, pi_signed), base)
    on_axis = opset.equal(x, zero)
    y_zero = opset.equal(y, zero)
    axis_value = opset.select(y_neg, opset.negative(half_pi), half_pi)
    zero_value = opset.select(x_neg, pi_signed, opset.select(y_neg, opset.negative(zero), zero))
    out = opset.select(on_axis, opset.select(y_zero, zero_value, axis_value), out)
    # Infinities: atan(inf/inf) is nan; IEEE gives odd multiples of pi/4.
    both_inf = opset.logical_and(is_inf(x), is_inf(y))
    quarter = opset.select(x_neg, const_like(3 * math.pi / 4, x), const_like(math.pi / 4, x))
    quarter = opset.select(y_neg, opset.negative(quarter), quarter)
    return opset.select(both_inf, quarter, out).output(0)


def is_inf(node):
    return opset.is_inf(node).output(0)


def signbit_node(x):
    """True where ``x`` is negative, including -0.0 (found as 1/x < 0) and -nan aside."""
    zero = const_like(0, x)
    negative = opset.less(x, zero)
    if not is_float(x):
        return negative.output(0)
    inv = opset.divide(const_like(1, x), x)
    neg_zero = opset.logical_and(opset.equal(x, zero), opset.less(inv, zero))
    return opset.logical_or(negative, neg_zero).output(0)


def ov_type(dtype):
    return _dtypes.ov_type(dtype)


BOOL = ov.Type.boolean


def floor_divide_node(a, b):
    """``floor(a / b)``; for integers from OpenVINO's truncating division, corrected."""
    if is_float(a):
        return opset.floor(opset.divide(a, b)).output(0)
    quotient = opset.divide(a, b)
    remainder = opset.mod(a, b)
    zero = const_like(0, a)
    inexact = opset.not_equal(remainder, zero)
    opposite = opset.not_equal(opset.less(remainder, zero), opset.less(b, zero))
    fix = opset.logical_and(inexact, opposite)
    return opset.select(fix, opset.subtract(quotient, const_like(1, a)), quotient).output(0)


# The numpy ops OpenVINO cannot compute, with the reason (op name -> reason).
#
# OpenVINO has no complex element type and no bit-cast between element types.
# The complex-number ops below work on real tensors (``real`` is the identity,
# ``imag`` gives zeros, ``angle`` gives 0 or pi); given complex data they raise
# ``NotImplementedError``, as does ``view`` for a change of dtype.
_COMPLEX = "OpenVINO has no complex element type (real inputs work)"

UNSUPPORTED = {
    "angle": _COMPLEX,
    "conj": _COMPLEX,
    "conjugate": _COMPLEX,
    "real": _COMPLEX,
    "imag": _COMPLEX,
    "isreal": _COMPLEX,
    "view": "OpenVINO has no bit-cast between element types (a view to the same dtype works)",
    "nextafter": "OpenVINO has no bit-cast between float and integer element types",
}


def small_int_to_float(dtype):
    """Keras's rule for cbrt, hypot, heaviside: ints give floatx, int64 gives float64."""
    if dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        return _dtypes.floatx()
    if dtype in ("int64", "uint64"):
        return "float64"
    return dtype


def float_unary(name, fn):
    def op(x):
        return unary(name, lambda a, d: fn(a), x, compute=to_float)

    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}``; integer and bool inputs give floatx."
    return op


def real_only(name, x):
    """``x`` as a tensor; complex data raise NotImplementedError (declared unsupported)."""
    if np.iscomplexobj(x) and not isinstance(x, OpenVINOTensor):
        raise NotImplementedError(
            f"{name} is not supported on the openvino backend for complex input: "
            "OpenVINO has no complex element type. Real inputs work."
        )
    return to_tensor(x)


def cast_to(x, dtype):
    if x.dtype == dtype:
        return x
    return run(("cast", dtype), lambda a: cv(a, dtype), x)
