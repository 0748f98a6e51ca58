"""`foreach_update` runs chains of steps as torch's one-pass in-place kernels.

Each rule below is written as mb-train writes its optimizers (over ``xp``); the test
checks the numbers against NumPy (float64, rtol 1e-12: a fusion reorders the
arithmetic, e.g. ``m / (d / s)`` for ``m * s / d``) and the exact multi-tensor kernels
that ran, so it fails when a fusion is no longer taken (an out-of-place kernel, the
ones without a trailing ``_``, allocates a list of tensors).
"""

import numpy as np
import pytest
import torch

from mb_backend_torch import _compat, training

RNG = np.random.default_rng(7)
SHAPES = [(3,), (2, 4)]


class _Log(_compat.DispatchMode):
    def __init__(self):
        super().__init__()
        self.kernels = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.name().split(".")[0]
        if name.startswith("aten::_foreach_"):
            self.kernels.append(name.removeprefix("aten::_foreach_"))
        return func(*args, **(kwargs or {}))


LR = 0.01  # passed as a 0-d tensor, as the optimizers pass the learning rate


def _average_of_squares(xp, p, g, v, lr, w):
    # Adam's second moment: x + (y - x) * w with y = g * g.
    v = xp.add(v, xp.multiply(xp.subtract(xp.square(g), v), w))
    return xp.subtract(p, v), v


def _decayed_sum_of_squares(xp, p, g, v, lr, rho):
    # RMSprop's and Adadelta's accumulators: rho * v + (1 - rho) * g * g.
    v = xp.add(xp.multiply(rho, v), xp.multiply(xp.subtract(1.0, rho), xp.square(g)))
    return xp.add(p, v), v


def _sum_of_squares(xp, p, g, acc, lr, unused):
    # Adagrad's accumulator.
    acc = xp.add(acc, xp.square(g))
    return p, acc


def _scaled_ratio(xp, p, g, v, lr, eps):
    # Adagrad's and RMSprop's step, lr * g / sqrt(v + eps), lr a 0-d tensor.
    step = xp.divide(xp.multiply(lr, g), xp.sqrt(xp.add(v, eps)))
    return xp.subtract(p, step), v


def _ratio_times_number(xp, p, g, v, lr, c):
    return xp.subtract(p, xp.divide(xp.multiply(g, c), xp.add(v, 1.0))), v


def _decayed_sum(xp, p, g, m, lr, beta):
    # Lion's momentum: m * beta + g * (1 - beta).
    m = xp.add(xp.multiply(m, beta), xp.multiply(g, xp.subtract(1.0, beta)))
    return xp.add(p, m), m


def _scaled_denominator(xp, p, g, v, lr, c):
    # Adamax's step: lr * v / (c * (v + eps)); the scalars fold into one coefficient.
    step = xp.divide(xp.multiply(lr, v), xp.multiply(c, xp.add(v, 1e-7)))
    return xp.subtract(p, step), v


def _scaled_twice(xp, p, g, m, lr, c):
    # Nadam's u * m / (1 - u_prod): one multiplication by lr / c, in m's memory.
    return p, xp.divide(xp.multiply(lr, m), c)


def _sum_read_again(xp, p, g, v, lr, unused):
    # Centered RMSprop's v - avg * avg with v kept: one out-of-place addcmul.
    return xp.multiply(p, xp.subtract(v, xp.square(g))), v


def _sum_into_param(xp, p, g, v, lr, unused):
    # p + (v - g * g), the difference read once: accumulated into p, no new list.
    return xp.add(p, xp.subtract(v, xp.square(g))), v


def _sgd(xp, p, g, m, lr, unused):
    # p - g * lr, lr a 0-d tensor: on the CPU a broadcast factor of addcmul_.
    return xp.subtract(p, xp.multiply(g, lr)), m


def _weight_decay(xp, p, g, m, lr, decay):
    # mb-train's decoupled weight decay: p - p * decay * lr.
    return xp.subtract(p, xp.multiply(xp.multiply(p, decay), lr)), m


def _infinity_norm(xp, p, g, u, lr, beta):
    # Adamax's u = max(beta * u, |g|), then u + eps read beside the kept u: in the
    # memory of |g|'s list, which nothing reads any more (a copy, no allocation).
    u = xp.maximum(xp.multiply(beta, u), xp.abs(g))
    return xp.subtract(p, xp.divide(xp.multiply(lr, g), xp.add(u, 1e-7))), u


def _nesterov(xp, p, g, m, lr, momentum):
    # p + (m * momentum - g * lr), the sum read once: two accumulations into p.
    m = xp.subtract(xp.multiply(m, momentum), xp.multiply(g, lr))
    step = xp.subtract(xp.multiply(m, momentum), xp.multiply(g, lr))
    return xp.add(p, step), m


def _nesterov_reference(p, g, m, s):
    m = m * s - g * LR
    return p + (m * s - g * LR), m


CASES = {
    # rule: (NumPy reference of (p, slot), scalar, kernels)
    _average_of_squares: (
        lambda p, g, v, s: (p - (v + (g * g - v) * s), v + (g * g - v) * s),
        0.001,
        ["mul_", "addcmul_", "sub_"],
    ),
    _decayed_sum_of_squares: (
        lambda p, g, v, s: (p + (s * v + (1 - s) * g * g), s * v + (1 - s) * g * g),
        0.9,
        ["mul_", "addcmul_", "add_"],
    ),
    _sum_of_squares: (lambda p, g, a, s: (p, a + g * g), 0.0, ["addcmul_"]),
    _scaled_ratio: (
        lambda p, g, v, s: (p - LR * g / np.sqrt(v + s), v),
        1e-7,
        ["add", "sqrt_", "div_", "addcdiv_"],
    ),
    _ratio_times_number: (
        lambda p, g, v, s: (p - g * s / (v + 1.0), v),
        0.5,
        ["add", "addcdiv_"],
    ),
    _decayed_sum: (
        lambda p, g, m, s: (p + (m * s + g * (1 - s)), m * s + g * (1 - s)),
        0.99,
        ["mul_", "add_", "add_"],
    ),
    _scaled_denominator: (
        lambda p, g, v, s: (p - LR * v / (s * (v + 1e-7)), v),
        0.9,
        ["add", "div_", "addcdiv_"],
    ),
    _scaled_twice: (lambda p, g, m, s: (p, LR * m / s), 2.0, ["mul_"]),
    _sum_read_again: (lambda p, g, v, s: (p * (v - g * g), v), 0.0, ["addcmul", "mul_"]),
    _sum_into_param: (lambda p, g, v, s: (p + v - g * g, v), 0.0, ["add_", "addcmul_"]),
    _sgd: (lambda p, g, m, s: (p - g * LR, m), 0.0, ["addcmul_"]),
    _weight_decay: (lambda p, g, m, s: (p - p * s * LR, m), 0.004, ["mul_"]),
    _nesterov: (_nesterov_reference, 0.9, ["mul_", "addcmul_", "add_", "addcmul_"]),
    _infinity_norm: (
        lambda p, g, u, s: (
            p - LR * g / (np.maximum(s * u, np.abs(g)) + 1e-7),
            np.maximum(s * u, np.abs(g)),
        ),
        0.999,
        ["mul_", "abs", "maximum_", "copy_", "add_", "div_", "addcdiv_"],
    ),
}


@pytest.mark.parametrize("rule", CASES, ids=lambda rule: rule.__name__.strip("_"))
def test_a_fusable_chain_runs_as_one_pass_kernels_in_place(rule):
    reference, number, kernels = CASES[rule]
    p, g = ([RNG.normal(size=s) for s in SHAPES] for _ in range(2))
    slot = [np.abs(RNG.normal(size=s)) + 0.1 for s in SHAPES]
    tp, tg, ts = ([torch.tensor(a) for a in group] for group in (p, g, slot))
    memory = [[x.data_ptr() for x in group] for group in (tp, ts)]
    lr = torch.tensor(LR, dtype=torch.float64)
    with _Log() as log:
        training.foreach_update(rule, tp, tg, ts, scalars=(lr, number))
    assert log.kernels == kernels, f"{rule.__name__} ran {log.kernels}, not {kernels}"
    for i in range(len(SHAPES)):
        ep, es = reference(p[i], g[i], slot[i], number)
        np.testing.assert_allclose(tp[i].numpy(), ep, rtol=1e-12)
        np.testing.assert_allclose(ts[i].numpy(), es, rtol=1e-12)
        np.testing.assert_allclose(tg[i].numpy(), g[i], rtol=0)  # gradients never written
    assert [[x.data_ptr() for x in group] for group in (tp, ts)] == memory


def test_a_list_read_again_later_is_not_deferred_into_a_fusion():
    # v's square is averaged into m, but a step between reads v last, so computes
    # 2 * v in v's memory: the fused average must not read v after that step.
    def rule(xp, p, g, m, v):
        squared = xp.square(v)
        doubled = xp.multiply(v, 2.0)
        m = xp.add(m, xp.multiply(xp.subtract(squared, m), 0.5))
        return xp.add(p, m), m, doubled

    p, g, m, v = ([RNG.normal(size=s) for s in SHAPES] for _ in range(4))
    tp, tg, tm, tv = ([torch.tensor(a) for a in group] for group in (p, g, m, v))
    training.foreach_update(rule, tp, tg, tm, tv)
    for i in range(len(SHAPES)):
        em = m[i] + (v[i] ** 2 - m[i]) * 0.5
        np.testing.assert_allclose(tm[i].numpy(), em, rtol=1e-12)
        np.testing.assert_allclose(tp[i].numpy(), p[i] + em, rtol=1e-12)
        np.testing.assert_allclose(tv[i].numpy(), v[i] * 2.0, rtol=1e-12)


def test_a_list_is_reused_only_once_nothing_reads_it():
    # |g| is read again by the last step: u + eps may not be computed in its memory.
    def rule(xp, p, g, u):
        magnitude = xp.abs(g)
        u = xp.maximum(xp.multiply(u, 0.5), magnitude)
        shifted = xp.add(u, 1.0)
        return xp.add(p, xp.multiply(shifted, magnitude)), u

    p, g, u = ([RNG.normal(size=s) for s in SHAPES] for _ in range(3))
    tp, tg, tu = ([torch.tensor(a) for a in group] for group in (p, g, u))
    with _Log() as log:
        training.foreach_update(rule, tp, tg, tu)
    assert "copy_" not in log.kernels
    for i in range(len(SHAPES)):
        eu = np.maximum(u[i] * 0.5, np.abs(g[i]))
        np.testing.assert_allclose(tu[i].numpy(), eu, rtol=1e-12)
        np.testing.assert_allclose(tp[i].numpy(), p[i] + (eu + 1.0) * np.abs(g[i]), rtol=1e-12)


def test_off_the_cpu_a_tensor_factor_is_not_broadcast(monkeypatch):
    # On a GPU a list of 0-d factors would leave the one-launch path: g * lr is one
    # out-of-place kernel there (`on_cpu=False` stands for a GPU).
    from mb_backend_torch import _training_foreach

    monkeypatch.setattr(_training_foreach, "_on_cpu", lambda params: False)
    p, g = ([RNG.normal(size=s) for s in SHAPES] for _ in range(2))
    tp, tg = ([torch.tensor(a) for a in group] for group in (p, g))
    unused = [torch.zeros_like(x) for x in tp]
    lr = torch.tensor(LR, dtype=torch.float64)
    with _Log() as log:
        training.foreach_update(_sgd, tp, tg, unused, scalars=(lr, 0.0))
    assert log.kernels == ["mul", "sub_"]
    for i in range(len(SHAPES)):
        np.testing.assert_allclose(tp[i].numpy(), p[i] - g[i] * LR, rtol=1e-12)


def test_a_rule_is_traced_once_per_kind_of_call():
    # A steady optimizer step re-traces nothing: the traced rule and its fusions are
    # kept per (rule, slot count, Python numbers, CPU or not); a 0-d tensor scalar (the
    # learning rate) is a placeholder set on each call, so a new rate is used at once.
    from mb_backend_torch import _training_foreach

    def rule(xp, p, g, m, lr, momentum):
        m = xp.subtract(xp.multiply(m, momentum), xp.multiply(g, xp.multiply(lr, 2.0)))
        return xp.add(p, m), m

    p, g, m = ([RNG.normal(size=s) for s in SHAPES] for _ in range(3))
    tp, tg, tm = ([torch.tensor(a) for a in group] for group in (p, g, m))
    traced = _training_foreach._TRACE_COUNT[0]
    for step, (lr, momentum) in enumerate([(0.1, 0.9), (0.2, 0.9), (0.3, 0.9), (0.3, 0.5)]):
        rate = torch.tensor(lr, dtype=torch.float64)
        training.foreach_update(rule, tp, tg, tm, scalars=(rate, momentum))
        for i in range(len(SHAPES)):
            m[i] = m[i] * momentum - g[i] * lr * 2.0
            p[i] = p[i] + m[i]
            np.testing.assert_allclose(tm[i].numpy(), m[i], rtol=1e-12)
            np.testing.assert_allclose(tp[i].numpy(), p[i], rtol=1e-12)
        # The first call traces; another rate does not; another momentum does.
        assert _training_foreach._TRACE_COUNT[0] - traced == [1, 1, 1, 2][step]


def test_on_the_cpu_a_tensor_factor_is_read_where_nothing_records(monkeypatch):
    # p - g * lr as torch.optim's SGD runs it, add_(alpha=-lr), when no dispatch mode
    # (the step recorder, which refuses value reads) is active; under one (`_Log`
    # above) it stays a broadcast addcmul_ (test_a_fusable_chain_...[sgd]).
    calls = []
    for name in ("add_", "addcmul_"):
        kernel = getattr(_compat.foreach, name)
        monkeypatch.setattr(
            _compat.foreach,
            name,
            lambda *a, name=name, kernel=kernel, **k: calls.append((name, k)) or kernel(*a, **k),
        )
    p, g = ([RNG.normal(size=s) for s in SHAPES] for _ in range(2))
    tp, tg = ([torch.tensor(a) for a in group] for group in (p, g))
    unused = [torch.zeros_like(x) for x in tp]
    lr = torch.tensor(LR, dtype=torch.float64)
    training.foreach_update(_sgd, tp, tg, unused, scalars=(lr, 0.0))
    assert calls == [("add_", {"alpha": -LR})]
    for i in range(len(SHAPES)):
        np.testing.assert_allclose(tp[i].numpy(), p[i] - g[i] * LR, rtol=1e-12)


def test_under_a_dispatch_mode_no_value_is_read_into_python():
    # The step recorder refuses a step that reads a tensor's value (`.item()`): under
    # a dispatch mode the rate stays a tensor, broadcast into addcmul_.
    class _AllOps(_compat.DispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(func.name())
            return func(*args, **(kwargs or {}))

    tp, tg = ([torch.tensor(RNG.normal(size=s)) for s in SHAPES] for _ in range(2))
    unused = [torch.zeros_like(x) for x in tp]
    lr = torch.tensor(LR, dtype=torch.float64)
    with _AllOps() as log:
        training.foreach_update(_sgd, tp, tg, unused, scalars=(lr, 0.0))
    assert "aten::_local_scalar_dense" not in log.ops
    assert any(name.startswith("aten::_foreach_addcmul_") for name in log.ops)
