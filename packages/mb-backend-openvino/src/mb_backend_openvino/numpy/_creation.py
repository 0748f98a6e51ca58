"""Creating tensors: constants, ranges, grids and window functions."""

import math

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import convert_to_tensor, to_tensor
from mb_backend_openvino._graph import (
    abs_node,
    const,
    const_like,
    cv,
    i64,
    kind_of,
    opset,
    reshape,
    run,
)
from mb_backend_openvino.numpy._transcendental import _i0_node
from mb_ops import numpy_shaped


def _dtype(dtype):
    return _dtypes.standardize_dtype(dtype)


_shape = numpy_shaped.as_shape


def array(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def full(shape, fill_value, dtype=None):
    shape = _shape(shape)
    fill = to_tensor(fill_value)
    dtype = _dtype(dtype)

    def build(v):
        return opset.broadcast(cv(v, dtype), i64(list(shape)))

    return run(("full", shape, dtype), build, fill)


def zeros(shape, dtype=None):
    return _constant_fill(_shape(shape), 0, _dtype(dtype))


def ones(shape, dtype=None):
    return _constant_fill(_shape(shape), 1, _dtype(dtype))


def empty(shape, dtype=None):
    return zeros(shape, dtype)


def _constant_fill(shape, value, dtype):
    return run(
        ("fill", shape, value, dtype),
        lambda: opset.broadcast(const(value, dtype), i64(list(shape))),
    )


def _like(x, dtype):
    x = to_tensor(x)
    return x, (x.dtype if dtype is None else _dtype(dtype))


def zeros_like(x, dtype=None):
    x, dtype = _like(x, dtype)
    return run(
        ("zeros_like", dtype), lambda a: opset.broadcast(const(0, dtype), opset.shape_of(a)), x
    )


def ones_like(x, dtype=None):
    x, dtype = _like(x, dtype)
    return run(
        ("ones_like", dtype), lambda a: opset.broadcast(const(1, dtype), opset.shape_of(a)), x
    )


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    x, dtype = _like(x, dtype)
    fill = to_tensor(fill_value)
    return run(
        ("full_like", dtype), lambda a, v: opset.broadcast(cv(v, dtype), opset.shape_of(a)), x, fill
    )


def eye(N, M=None, k=0, dtype=None):
    rows = int(N)
    cols = rows if M is None else int(M)
    dtype = _dtype(dtype)

    def build():
        mask = opset.eye(i64(rows), i64(cols), i64(int(k)), "boolean")
        return opset.select(mask, const(1, dtype), const(0, dtype))

    return run(("eye", rows, cols, int(k), dtype), build)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    rows = int(N)
    cols = rows if M is None else int(M)
    dtype = _dtype(dtype)

    def build():
        r = opset.range(
            opset.constant(np.int32(0)),
            opset.constant(np.int32(rows)),
            opset.constant(np.int32(1)),
            "i32",
        )
        c = opset.range(
            opset.constant(np.int32(0)),
            opset.constant(np.int32(cols)),
            opset.constant(np.int32(1)),
            "i32",
        )
        lower = opset.less_equal(
            opset.unsqueeze(c, i64([0])),
            opset.add(opset.unsqueeze(r, i64([1])), opset.constant(np.int32(int(k)))),
        )
        return opset.select(lower, const(1, dtype), const(0, dtype))

    return run(("tri", rows, cols, int(k), dtype), build)


def arange(start, stop=None, step=None, dtype=None):
    if dtype is None:
        parts = [kind_of(start)]
        if stop is not None:
            parts.append(kind_of(stop))
        if step is not None:
            parts.append(kind_of(step))
        dtype = _dtypes.result_type(*parts)
    dtype = _dtype(dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    work = (
        "float32" if dtype in ("float16", "bfloat16") else ("int32" if dtype == "bool" else dtype)
    )
    bounds = [
        to_tensor(
            np.asarray(
                float(v) if _dtypes.is_float_dtype(work) else int(v),
                dtype=_dtypes.to_numpy_dtype(work),
            )
        )
        for v in (start, stop, step)
    ]

    def build(a, b, s):
        values = opset.range(a, b, s, _dtypes.ov_type(work))
        return cv(values.output(0), dtype)

    return run(("arange", dtype), build, *bounds)


def _space_dtype(start, stop, dtype):
    if dtype is not None:
        return _dtype(dtype)
    return _dtypes.result_type(kind_of(start), kind_of(stop), float)


def _linspace_node(a, b, num, endpoint, axis, work):
    """``num`` points from ``a`` to ``b`` (arrays broadcast), stacked along ``axis``."""
    a, b = cv(a, work), cv(b, work)
    div = (num - 1) if endpoint else num
    steps = opset.range(
        opset.constant(np.int32(0)),
        opset.constant(np.int32(num)),
        opset.constant(np.int32(1)),
        "i32",
    )
    steps = cv(steps.output(0), work)
    both = opset.add(opset.multiply(a, const_like(0, a)), opset.multiply(b, const_like(0, b)))
    nd = len(both.get_output_partial_shape(0))
    steps = reshape(steps, [num] + [1] * nd)
    delta = opset.subtract(b, a)
    step = opset.divide(delta, const_like(float(div) if div > 0 else 1.0, delta))
    out = opset.add(opset.add(a, opset.multiply(steps, step)), both)
    if endpoint and num > 1:
        last = opset.unsqueeze(opset.add(b, both), i64([0]))
        head = opset.slice(out, i64([0]), i64([num - 1]), i64([1]), i64([0]))
        out = opset.concat([head, last], 0)
    out = out.output(0) if hasattr(out, "output") else out
    if axis != 0:
        perm = list(range(1, nd + 1))
        perm.insert(axis % (nd + 1), 0)
        out = opset.transpose(out, i64(perm)).output(0)
    return out, step


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    dtype = _space_dtype(start, stop, dtype)
    num = int(num)
    work = "float64" if dtype == "float64" else "float32"
    a, b = to_tensor(start), to_tensor(stop)

    def build(p, q):
        out, step = _linspace_node(p, q, num, bool(endpoint), int(axis), work)
        return [cv(out, dtype), cv(step.output(0), dtype)]

    samples, step = run(("linspace", num, bool(endpoint), int(axis), dtype), build, a, b)
    return (samples, step) if retstep else samples


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    dtype = _space_dtype(start, stop, dtype)
    num = int(num)
    work = "float64" if dtype == "float64" else "float32"
    a, b, c = to_tensor(start), to_tensor(stop), to_tensor(base)

    def build(p, q, r):
        out, _ = _linspace_node(p, q, num, bool(endpoint), int(axis), work)
        return cv(opset.power(cv(r, work), out).output(0), dtype)

    return run(("logspace", num, bool(endpoint), int(axis), dtype), build, a, b, c)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    dtype = _dtype(dtype) if dtype is not None else _dtypes.floatx()
    num = int(num)
    work = "float64" if dtype == "float64" else "float32"
    a, b = to_tensor(start), to_tensor(stop)

    def build(p, q):
        p, q = cv(p, work), cv(q, work)
        sign = opset.sign(p)
        lo, hi = opset.log(abs_node(p)), opset.log(abs_node(q))
        out, _ = _linspace_node(lo.output(0), hi.output(0), num, bool(endpoint), int(axis), work)
        out = opset.multiply(opset.exp(out), sign)
        return cv(out.output(0), dtype)

    result = run(("geomspace", num, bool(endpoint), int(axis), dtype), build, a, b)
    return result


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid indexing must be 'xy' or 'ij', received {indexing!r}.")
    xs = [to_tensor(v) for v in x]
    n = len(xs)
    sizes = [v.size for v in xs]
    if indexing == "xy" and n >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, v in enumerate(xs):
        shape = [1] * n
        position = i
        if indexing == "xy" and n >= 2 and i < 2:
            position = 1 - i
        shape[position] = -1
        target = tuple(sizes)
        out.append(
            run(
                ("meshgrid", tuple(shape), target),
                lambda a, s=shape, t=target: opset.broadcast(reshape(a, s), i64(list(t))),
                v,
            )
        )
    return out


def _window(name, x, formula, beta=None):
    m = int(to_tensor(x).numpy()) if not isinstance(x, int) else int(x)
    dtype = _dtypes.floatx()

    def build():
        if m <= 0:
            return opset.broadcast(const(0, dtype), i64([0]))
        if m == 1:
            return opset.broadcast(const(1, dtype), i64([1]))
        n = opset.range(_f32(0), _f32(m), _f32(1), "f32")
        return cv(formula(n.output(0), float(m - 1)).output(0), dtype)

    return run((name, m, beta), build)


def _f32(v):
    return opset.constant(np.float32(v))


def _cos_sum(n, d, coeffs):
    out = None
    for i, c in enumerate(coeffs):
        term = (
            const_like(c, n)
            if i == 0
            else opset.multiply(
                const_like(c, n), opset.cos(opset.multiply(n, const_like(2 * math.pi * i / d, n)))
            )
        )
        out = term if out is None else opset.add(out, term)
    return out


def bartlett(x):
    def formula(n, d):
        half = const_like(d / 2, n)
        return opset.multiply(
            const_like(2 / d, n), opset.subtract(half, abs_node(opset.subtract(n, half)))
        )

    return _window("bartlett", x, formula)


def blackman(x):
    return _window("blackman", x, lambda n, d: _cos_sum(n, d, (0.42, -0.5, 0.08)))


def hamming(x):
    return _window("hamming", x, lambda n, d: _cos_sum(n, d, (0.54, -0.46)))


def hanning(x):
    return _window("hanning", x, lambda n, d: _cos_sum(n, d, (0.5, -0.5)))


def kaiser(x, beta):
    beta = float(to_tensor(beta).numpy()) if not isinstance(beta, int | float) else float(beta)

    def formula(n, d):
        ratio = opset.subtract(opset.multiply(n, const_like(2 / d, n)), const_like(1, n))
        inside = opset.sqrt(
            opset.maximum(
                opset.subtract(const_like(1, n), opset.multiply(ratio, ratio)), const_like(0, n)
            )
        )
        top = _i0_node(opset.multiply(inside, const_like(beta, n)).output(0))
        return opset.divide(top, _i0_node(const_like(beta, n)))

    return _window("kaiser", x, formula, beta)
