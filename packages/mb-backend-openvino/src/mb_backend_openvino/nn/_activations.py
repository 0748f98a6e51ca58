"""Activation functions; each keeps its input's dtype (OpenVINO computes in float32)."""

import math

import numpy as np

from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    abs_node,
    canonical_axes,
    canonical_axis,
    const_like,
    i64,
    opset,
    run,
)
from mb_backend_openvino.numpy._common import expm1_node, log1p_node


def _act(key, fn, x):
    x = to_tensor(x)
    return run(("act", key, x.dtype), fn, x)


def _c(value, node):
    return const_like(value, node)


def relu(x):
    return _act("relu", lambda a: opset.relu(a), x)


def relu6(x):
    return _act("relu6", lambda a: opset.minimum(opset.relu(a), _c(6, a)), x)


def sigmoid(x):
    return _act("sigmoid", lambda a: opset.sigmoid(a), x)


def sparse_sigmoid(x):
    def fn(a):
        mid = opset.multiply(_c(0.5, a), opset.add(a, _c(1, a)))
        out = opset.select(opset.greater_equal(a, _c(1, a)), _c(1, a), mid)
        return opset.select(opset.less_equal(a, _c(-1, a)), _c(0, a), out)

    return _act("sparse_sigmoid", fn, x)


def tanh(x):
    return _act("tanh", lambda a: opset.tanh(a), x)


def tanh_shrink(x):
    return _act("tanh_shrink", lambda a: opset.subtract(a, opset.tanh(a)), x)


def _softplus_node(a):
    # log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), finite for every x.
    tail = log1p_node(opset.exp(opset.negative(abs_node(a))).output(0))
    return opset.add(opset.relu(a), tail)


def softplus(x):
    return _act("softplus", _softplus_node, x)


def softsign(x):
    return _act("softsign", lambda a: opset.divide(a, opset.add(_c(1, a), abs_node(a))), x)


def soft_shrink(x, threshold=0.5):
    t = float(threshold)

    def fn(a):
        out = opset.select(opset.less(a, _c(-t, a)), opset.add(a, _c(t, a)), _c(0, a))
        return opset.select(opset.greater(a, _c(t, a)), opset.subtract(a, _c(t, a)), out)

    return _act(("soft_shrink", t), fn, x)


def sparse_plus(x):
    def fn(a):
        shifted = opset.add(a, _c(1, a))
        middle = opset.multiply(_c(0.25, a), opset.multiply(shifted, shifted))
        out = opset.select(opset.less(a, _c(1, a)), middle, a)
        return opset.select(opset.less_equal(a, _c(-1, a)), _c(0, a), out)

    return _act("sparse_plus", fn, x)


def silu(x):
    return _act("silu", lambda a: opset.multiply(a, opset.sigmoid(a)), x)


def squareplus(x, b=4):
    b = float(b)

    def fn(a):
        root = opset.sqrt(opset.add(opset.multiply(a, a), _c(b, a)))
        return opset.divide(opset.add(a, root), _c(2, a))

    return _act(("squareplus", b), fn, x)


def log_sigmoid(x):
    return _act(
        "log_sigmoid", lambda a: opset.negative(_softplus_node(opset.negative(a).output(0))), x
    )


def leaky_relu(x, negative_slope=0.2):
    s = float(negative_slope)

    def fn(a):
        return opset.select(opset.greater_equal(a, _c(0, a)), a, opset.multiply(a, _c(s, a)))

    return _act(("leaky_relu", s), fn, x)


def _hard_sigmoid_node(a):
    y = opset.add(opset.divide(a, _c(6, a)), _c(0.5, a))
    return opset.minimum(opset.maximum(y, _c(0, a)), _c(1, a))


def hard_sigmoid(x):
    return _act("hard_sigmoid", _hard_sigmoid_node, x)


def hard_silu(x):
    return _act("hard_silu", lambda a: opset.multiply(a, _hard_sigmoid_node(a)), x)


def _elu_node(a, alpha):
    neg = opset.multiply(_c(alpha, a), expm1_node(opset.minimum(a, _c(0, a)).output(0)))
    return opset.select(opset.greater_equal(a, _c(0, a)), a, neg)


def elu(x, alpha=1.0):
    alpha = float(alpha)
    return _act(("elu", alpha), lambda a: _elu_node(a, alpha), x)


def selu(x):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return _act("selu", lambda a: opset.multiply(_c(scale, a), _elu_node(a, alpha)), x)


def gelu(x, approximate=True):
    def fn(a):
        if approximate:
            inner = opset.multiply(
                _c(math.sqrt(2 / math.pi), a),
                opset.add(
                    a, opset.multiply(_c(0.044715, a), opset.multiply(a, opset.multiply(a, a)))
                ),
            )
            return opset.multiply(
                opset.multiply(a, _c(0.5, a)), opset.add(_c(1, a), opset.tanh(inner))
            )
        erf = opset.erf(opset.divide(a, _c(math.sqrt(2), a)))
        return opset.divide(opset.multiply(a, opset.add(erf, _c(1, a))), _c(2, a))

    return _act(("gelu", bool(approximate)), fn, x)


def celu(x, alpha=1.0):
    alpha = float(alpha)

    def fn(a):
        neg = expm1_node(opset.divide(opset.minimum(a, _c(0, a)), _c(alpha, a)).output(0))
        return opset.add(opset.relu(a), opset.multiply(_c(alpha, a), neg))

    return _act(("celu", alpha), fn, x)


def glu(x, axis=-1):
    x = to_tensor(x)
    ax = canonical_axis(axis, x.ndim, "glu")
    if x.shape[ax] is not None and x.shape[ax] % 2 != 0:
        raise ValueError(
            f"glu splits `axis` in two halves, so its size must be even. "
            f"Received: x.shape={x.shape} with axis={axis}."
        )

    def fn(a):
        halves = opset.split(a, i64(ax), 2)
        return opset.multiply(halves.output(0), opset.sigmoid(halves.output(1)))

    return _act(("glu", ax), fn, x)


def hard_tanh(x):
    return _act("hard_tanh", lambda a: opset.minimum(opset.maximum(a, _c(-1, a)), _c(1, a)), x)


def hard_shrink(x, threshold=0.5):
    t = float(threshold)

    def fn(a):
        return opset.select(opset.greater(abs_node(a), _c(t, a)), a, _c(0, a))

    return _act(("hard_shrink", t), fn, x)


def threshold(x, threshold, default_value):
    t, v = float(threshold), float(default_value)
    return _act(
        ("threshold", t, v), lambda a: opset.select(opset.greater(a, _c(t, a)), a, _c(v, a)), x
    )


def _axes(axis, ndim):
    return canonical_axes(axis, ndim, "softmax")


def softmax(x, axis=-1):
    x = to_tensor(x)
    axes = _axes(axis, x.ndim)

    def fn(a):
        if len(axes) == 1:
            return opset.softmax(a, axes[0])
        shifted = opset.subtract(a, opset.reduce_max(a, i64(list(axes)), True))
        e = opset.exp(shifted)
        return opset.divide(e, opset.reduce_sum(e, i64(list(axes)), True))

    return _act(("softmax", axes), fn, x)


def log_softmax(x, axis=-1):
    x = to_tensor(x)
    axes = _axes(axis, x.ndim)

    def fn(a):
        shifted = opset.subtract(a, opset.reduce_max(a, i64(list(axes)), True))
        total = opset.reduce_sum(opset.exp(shifted), i64(list(axes)), True)
        return opset.subtract(shifted, opset.log(total))

    return _act(("log_softmax", axes), fn, x)


def sparsemax(x, axis=-1):
    """Euclidean projection of ``x`` onto the probability simplex along ``axis``."""
    x = to_tensor(x)
    ax = canonical_axis(axis, x.ndim, "sparsemax")
    n = x.shape[ax]

    def fn(a):
        nd = len(a.get_partial_shape())
        perm = [d for d in range(nd) if d != ax] + [ax]
        inv = [perm.index(d) for d in range(nd)]
        z = opset.transpose(a, i64(perm))
        ordered = opset.topk(z, opset.constant(n), -1, "max", "value", "i32").output(0)
        cumulative = opset.cumsum(ordered, i64(-1))
        ranks = opset.range(
            opset.constant(1.0),
            opset.constant(float(n + 1)),
            opset.constant(1.0),
            z.get_element_type(),
        )
        support = opset.greater(opset.add(_c(1, z), opset.multiply(ranks, ordered)), cumulative)
        k = opset.reduce_sum(opset.convert(support, z.get_element_type()), i64([-1]), True)
        k_index = opset.subtract(opset.convert(k, "i32"), opset.constant(np.int32(1)))
        tau = opset.divide(
            opset.subtract(opset.gather_elements(cumulative, k_index, -1), _c(1, z)), k
        )
        out = opset.maximum(opset.subtract(z, tau), _c(0, z))
        return opset.transpose(out, i64(inv))

    return run(("sparsemax", ax, n, x.dtype), fn, x)
