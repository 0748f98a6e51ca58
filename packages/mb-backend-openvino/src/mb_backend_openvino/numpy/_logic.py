"""Element-wise logic: comparisons, closeness, float classification, logical and bitwise
ops."""

from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import abs_node, const_like, cv, i64, opset, promote, run
from mb_backend_openvino.numpy._common import (
    binary,
    is_float,
    is_nan,
    real_only,
    signbit_node,
    unary,
)


def signbit(x):
    return unary("signbit", lambda a, d: signbit_node(a), x, out=lambda d: "bool")


def _bool(dtype):
    return "bool"


def _compare(name, fn):
    def op(x1, x2):
        return binary(name, lambda a, b, d: fn(a, b), x1, x2, out=_bool)

    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}``; returns bool."
    return op


equal = _compare("equal", opset.equal)

not_equal = _compare("not_equal", opset.not_equal)

less = _compare("less", opset.less)

less_equal = _compare("less_equal", opset.less_equal)

greater = _compare("greater", opset.greater)

greater_equal = _compare("greater_equal", opset.greater_equal)


def _logical(name, fn):
    def op(x1, x2):
        a, b = to_tensor(x1), to_tensor(x2)
        return run(name, lambda p, q: fn(cv(p, "bool"), cv(q, "bool")), a, b)

    op.__name__ = name
    return op


logical_and = _logical("logical_and", opset.logical_and)

logical_or = _logical("logical_or", opset.logical_or)

logical_xor = _logical("logical_xor", opset.logical_xor)


def logical_not(x):
    return run("logical_not", lambda p: opset.logical_not(cv(p, "bool")), to_tensor(x))


def _isclose(a, b, rtol, atol, equal_nan):
    if not is_float(a):
        a, b = cv(a, "float32"), cv(b, "float32")
    diff = abs_node(opset.subtract(a, b))
    bound = opset.add(const_like(atol, a), opset.multiply(const_like(rtol, a), abs_node(b)))
    close = opset.less_equal(diff, bound)
    # Equal infinities are close; mixed ones are not (their difference is inf or nan).
    close = opset.logical_or(close, opset.equal(a, b))
    if equal_nan:
        close = opset.logical_or(close, opset.logical_and(is_nan(a), is_nan(b)))
    return close


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    def build(a, b, d):
        return _isclose(a, b, rtol, atol, equal_nan)

    return binary(("isclose", rtol, atol, bool(equal_nan)), build, x1, x2, out=_bool)


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    def build(a, b, d):
        close = _isclose(a, b, rtol, atol, equal_nan)
        flat = opset.reshape(close, i64([-1]), False)
        return opset.reduce_logical_and(flat, i64([0]), False)

    return binary(("allclose", rtol, atol, bool(equal_nan)), build, x1, x2, out=_bool)


def _float_predicate(name, fn, default):
    def op(x):
        x = to_tensor(x)

        def build(a, d):
            if not is_float(a):
                return opset.equal(a, a) if default else opset.not_equal(a, a)
            return fn(a)

        return unary(name, build, x, out=_bool)

    op.__name__ = name
    return op


isfinite = _float_predicate("isfinite", opset.is_finite, True)

isinf = _float_predicate("isinf", opset.is_inf, False)

isnan = _float_predicate("isnan", opset.is_nan, False)

isposinf = _float_predicate(
    "isposinf",
    lambda a: opset.logical_and(opset.is_inf(a), opset.greater(a, const_like(0, a))),
    False,
)

isneginf = _float_predicate(
    "isneginf",
    lambda a: opset.logical_and(opset.is_inf(a), opset.less(a, const_like(0, a))),
    False,
)


def isreal(x):
    x = real_only("isreal", x)
    return unary(
        "isreal",
        lambda a, d: (
            opset.equal(a, a) if not is_float(a) else opset.logical_or(opset.equal(a, a), is_nan(a))
        ),
        x,
        out=_bool,
    )


def _bitwise(name, fn, bool_fn):
    def op(x, y):
        def build(a, b, d):
            return bool_fn(a, b) if d == "bool" else fn(a, b)

        return binary(name, build, x, y)

    op.__name__ = name
    return op


bitwise_and = _bitwise("bitwise_and", opset.bitwise_and, opset.logical_and)

bitwise_or = _bitwise("bitwise_or", opset.bitwise_or, opset.logical_or)

bitwise_xor = _bitwise("bitwise_xor", opset.bitwise_xor, opset.logical_xor)


def bitwise_invert(x):
    def build(a, d):
        return opset.logical_not(a) if d == "bool" else opset.bitwise_not(a)

    return unary("bitwise_not", build, x)


def bitwise_not(x):
    return bitwise_invert(x)


def _shift(name, x, y, left):
    x = to_tensor(x)
    if isinstance(y, int) and not isinstance(y, bool):
        (a, b), dtype = [x, to_tensor(y)], x.dtype
    else:
        (a, b), dtype = promote(x, y)

    def build(p, q):
        p, q = cv(p, dtype), cv(q, dtype)
        if left:
            return opset.bitwise_left_shift(p, q)
        if dtype in ("uint8", "uint16"):
            # OpenVINO's CPU shifts unsigned values arithmetically: widen them first.
            wide = opset.bitwise_right_shift(cv(p, "int32"), cv(q, "int32"))
            return cv(wide.output(0), dtype)
        if dtype in ("uint32", "uint64"):
            width = const_like(32 if dtype == "uint32" else 64, q)
            one = const_like(1, p)
            mask = opset.subtract(opset.bitwise_left_shift(one, opset.subtract(width, q)), one)
            full = opset.bitwise_not(const_like(0, p))
            mask = opset.select(opset.equal(q, const_like(0, q)), full, mask)
            return opset.bitwise_and(opset.bitwise_right_shift(p, q), mask)
        return opset.bitwise_right_shift(p, q)

    return run((name, dtype), build, a, b)


def bitwise_left_shift(x, y):
    return _shift("left_shift", x, y, True)


def left_shift(x, y):
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    return _shift("right_shift", x, y, False)


def right_shift(x, y):
    return bitwise_right_shift(x, y)
