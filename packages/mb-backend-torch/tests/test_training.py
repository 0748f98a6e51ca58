"""Training primitives: gradients vs finite differences, jit, multi_step, fused updates.

Finite differences use float64 and central differences (step 1e-6, tolerance 1e-6).
Optimizer updates are compared with NumPy versions of Keras's formulas (1e-6).
"""

import numpy as np
import pytest
import torch

from mb_backend_torch import _training_foreach, nn, training
from mb_backend_torch import numpy as tnp

RNG = np.random.default_rng(3)


def _finite_difference(fn, x, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (fn(up) - fn(down)) / (2 * eps)
    return grad


def _loss(w, b, x):
    return tnp.mean(nn.softplus(tnp.matmul(x, w) + b) ** 2)


def test_value_and_grad_matches_finite_differences():
    w = RNG.normal(size=(3, 2))
    b = RNG.normal(size=(2,))
    x = RNG.normal(size=(4, 3))
    grad_fn = training.value_and_grad(lambda params, x: _loss(params[0], params[1], x))
    value, (gw, gb) = grad_fn([torch.tensor(w), torch.tensor(b)], torch.tensor(x))

    def numeric(wv, bv):
        return float(_loss(torch.tensor(wv), torch.tensor(bv), torch.tensor(x)))

    assert float(value) == pytest.approx(numeric(w, b))
    np.testing.assert_allclose(
        gw.numpy(), _finite_difference(lambda v: numeric(v, b), w), atol=1e-6
    )
    np.testing.assert_allclose(
        gb.numpy(), _finite_difference(lambda v: numeric(w, v), b), atol=1e-6
    )
    assert not value.requires_grad


def test_value_and_grad_with_aux_argnums_and_dicts():
    def fn(params, scale, offset):
        value = scale * (params["a"] ** 2).sum() + offset
        return value, {"double": value * 2}

    grad_fn = training.value_and_grad(fn, argnums=(0, 1), has_aux=True)
    params = {"a": torch.tensor([1.0, -2.0])}
    (value, aux), (gp, gs) = grad_fn(params, torch.tensor(3.0), 1.0)
    assert float(value) == 16.0 and float(aux["double"]) == 32.0
    np.testing.assert_allclose(gp["a"].numpy(), [6.0, -12.0])
    assert float(gs) == 5.0


def test_value_and_grad_gives_zero_for_unused_and_integer_inputs():
    grad_fn = training.value_and_grad(lambda xs: (xs[0] * 2).sum())
    _, grads = grad_fn([torch.tensor([1.0]), torch.tensor([5.0]), torch.tensor([1])])
    assert grads[0].item() == 2.0 and grads[1].item() == 0.0 and grads[2].item() == 0


def test_value_and_grad_nests_for_second_order():
    inner = training.value_and_grad(lambda x: (x**3).sum())
    outer = training.value_and_grad(lambda x: inner(x)[1].sum())
    _, second = outer(torch.tensor([2.0]))
    assert second.item() == pytest.approx(12.0)  # d/dx 3x^2


def test_value_and_grad_refuses_non_scalar():
    with pytest.raises(ValueError, match="scalar"):
        training.value_and_grad(lambda x: x * 2)(torch.ones(3))


def test_jit_is_eager_by_default_and_compiles_when_asked():
    def fn(x):
        return torch.sin(x) * 2

    assert training.jit(fn) is fn
    compiled = training.jit(fn, mode="compile", backend="eager")
    assert compiled is not fn
    x = torch.linspace(0, 1, 5)
    np.testing.assert_allclose(compiled(x).numpy(), fn(x).numpy())
    with pytest.raises(TypeError, match="without compiling"):
        training.jit(fn, fullgraph=True)


@pytest.mark.parametrize("stacked", [False, True])
def test_multi_step_runs_n_steps(stacked):
    def step(state, batch):
        state = state + batch.sum()
        return state, {"last": batch.sum()}

    batches = [torch.tensor([float(i), 1.0]) for i in range(4)]
    run = training.multi_step(step, 4)
    state, logs = run(torch.tensor(0.0), torch.stack(batches) if stacked else batches)
    assert float(state) == 0 + 1 + 2 + 3 + 4 and float(logs["last"]) == 4.0
    with pytest.raises(ValueError, match="needs 4 batches"):
        run(torch.tensor(0.0), batches[:2])


def test_fused_update_matches_per_tensor_update_and_donates():
    params = [torch.ones(3), torch.full((2, 2), 2.0)]
    grads = [torch.full((3,), 0.5), torch.ones((2, 2))]
    moms = [torch.zeros(3), torch.zeros((2, 2))]

    def update(p, g, m, lr):
        m = 0.9 * m + g
        return p - lr * m, m

    new_p, _ = training.fused_update(update, params, grads, moms, scalars=(0.1,))
    np.testing.assert_allclose(new_p[0].numpy(), 1 - 0.05)
    assert params[0][0].item() == 1.0  # not donated: inputs unchanged
    before = params[1]
    training.fused_update(update, params, grads, moms, scalars=(0.1,), donate=True)
    assert params[1] is before and params[1][0, 0].item() == pytest.approx(1.9)
    np.testing.assert_allclose(moms[1].numpy(), 1.0)


def _adam_rule(xp, param, grad, m, v, alpha, one_minus_beta_1, one_minus_beta_2, epsilon):
    # Keras's Adam, written once over an elementwise namespace (as mb-train writes it).
    m = xp.add(m, xp.multiply(xp.subtract(grad, m), one_minus_beta_1))
    v = xp.add(v, xp.multiply(xp.subtract(xp.square(grad), v), one_minus_beta_2))
    step = xp.divide(xp.multiply(m, alpha), xp.add(xp.sqrt(v), epsilon))
    return xp.subtract(param, step), m, v


def test_foreach_update_runs_an_elementwise_rule_over_every_tensor_in_place():
    shapes = [(3,), (2, 4), ()]
    p = [RNG.normal(size=s) for s in shapes]
    g = [RNG.normal(size=s) for s in shapes]
    m = [RNG.normal(size=s) * 0.1 for s in shapes]
    v = [np.abs(RNG.normal(size=s)) * 0.1 for s in shapes]
    tp, tg, tm, tv = ([torch.tensor(a) for a in group] for group in (p, g, m, v))
    objects = [list(tp), list(tm), list(tv)]
    alpha = torch.tensor(0.01 * np.sqrt(1 - 0.999**3) / (1 - 0.9**3), dtype=torch.float64)
    training.foreach_update(_adam_rule, tp, tg, tm, tv, scalars=(alpha, 0.1, 0.001, 1e-7))
    for i in range(len(shapes)):
        em = m[i] + (g[i] - m[i]) * 0.1
        ev = v[i] + (g[i] * g[i] - v[i]) * 0.001
        ep = p[i] - em * alpha.item() / (np.sqrt(ev) + 1e-7)
        np.testing.assert_allclose(tp[i].numpy(), ep, rtol=1e-12)
        np.testing.assert_allclose(tm[i].numpy(), em, rtol=1e-12)
        np.testing.assert_allclose(tv[i].numpy(), ev, rtol=1e-12)
    # In place: the caller's tensors hold the results (a variable's value stays its own).
    for before, after in zip(objects, (tp, tm, tv), strict=True):
        assert all(x is y for x, y in zip(before, after, strict=True))


def _momentum_rule(xp, param, grad, m, lr, momentum):
    # Keras's SGD with momentum, as mb-train writes it.
    m = xp.subtract(xp.multiply(m, momentum), xp.multiply(grad, lr))
    return xp.add(param, m), m


@pytest.mark.parametrize("on_cpu", [True, False], ids=["cpu", "device"])
def test_foreach_momentum_scales_the_slot_in_place(monkeypatch, on_cpu):
    # m * momentum is read once, so it is computed in m's own memory, and no copy. On
    # a GPU grad * lr is the one list of new tensors a step (a gradient is never
    # written); on the CPU, where the kernels run tensor by tensor, none: the 0-d lr
    # is broadcast into addcmul_ (`on_cpu=False` stands for a GPU here).
    monkeypatch.setattr(_training_foreach, "_on_cpu", lambda params: on_cpu)
    shapes = [(3,), (2, 4)]
    p = [RNG.normal(size=s) for s in shapes]
    g = [RNG.normal(size=s) for s in shapes]
    m = [RNG.normal(size=s) for s in shapes]
    tp, tg, tm = ([torch.tensor(a) for a in group] for group in (p, g, m))
    memory = [x.data_ptr() for x in tm]
    kernels = dict(_training_foreach._KERNELS)
    calls = []

    def counted(op, out_of_place):
        def kernel(*args):
            calls.append(op)
            return out_of_place(*args)

        return kernel

    for op, (out_of_place, in_place) in kernels.items():
        monkeypatch.setitem(_training_foreach._KERNELS, op, (counted(op, out_of_place), in_place))
    lr = torch.tensor(0.01, dtype=torch.float64)
    training.foreach_update(_momentum_rule, tp, tg, tm, scalars=(lr, 0.9))
    for i in range(len(shapes)):
        em = m[i] * 0.9 - g[i] * 0.01
        np.testing.assert_allclose(tm[i].numpy(), em, rtol=1e-12)
        np.testing.assert_allclose(tp[i].numpy(), p[i] + em, rtol=1e-12)
        np.testing.assert_allclose(tg[i].numpy(), g[i], rtol=0)
    assert calls == ([] if on_cpu else ["multiply"])  # out-of-place kernels
    assert [x.data_ptr() for x in tm] == memory


_UNARY = {"abs": np.abs, "negative": np.negative, "sign": np.sign, "sqrt": np.sqrt}
_UNARY["square"] = np.square
_BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply}
_BINARY.update(divide=np.divide, maximum=np.maximum, minimum=np.minimum)


@pytest.mark.parametrize("name", sorted(_UNARY) + sorted(_BINARY))
@pytest.mark.parametrize("form", ["lists", "list_scalar", "scalar_list", "reused"])
def test_each_elementwise_function_over_lists_equals_numpy(name, form):
    # One rule per function and argument form; "reused" reads the argument again
    # afterwards, so the step must not overwrite it.
    p = [RNG.normal(size=s) + 3.0 for s in [(3,), (2, 2)]]
    g = [RNG.normal(size=s) + 3.0 for s in [(3,), (2, 2)]]
    m = [RNG.normal(size=s) + 3.0 for s in [(3,), (2, 2)]]
    scalar = torch.tensor(2.5, dtype=torch.float64)
    unary = name in _UNARY

    def rule(xp, param, grad, slot, s):
        function = getattr(xp, name)
        if unary:
            value = function(grad if form != "reused" else slot)
        elif form == "lists":
            value = function(grad, slot)
        elif form == "list_scalar":
            value = function(slot, s)
        elif form == "scalar_list":
            value = function(s, slot)
        else:
            value = function(slot, grad)
        return xp.add(param, value), xp.multiply(slot, 1.0) if form == "reused" else slot

    tp, tg, tm = ([torch.tensor(a) for a in group] for group in (p, g, m))
    training.foreach_update(rule, tp, tg, tm, scalars=(scalar,))
    for i in range(2):
        if unary:
            value = _UNARY[name](g[i] if form != "reused" else m[i])
        elif form == "lists":
            value = _BINARY[name](g[i], m[i])
        elif form == "list_scalar":
            value = _BINARY[name](m[i], 2.5)
        elif form == "scalar_list":
            value = _BINARY[name](2.5, m[i])
        else:
            value = _BINARY[name](m[i], g[i])
        np.testing.assert_allclose(tp[i].numpy(), p[i] + value, rtol=1e-12)
        np.testing.assert_allclose(tm[i].numpy(), m[i], rtol=1e-12)
        np.testing.assert_allclose(tg[i].numpy(), g[i], rtol=0)  # gradients never written


def test_foreach_update_refuses_lists_of_different_lengths():
    with pytest.raises(ValueError, match=r"params \(2\), grads \(1\)"):
        training.foreach_update(_adam_rule, [torch.ones(1)] * 2, [torch.ones(1)], [], [])


def test_concatenate_outputs_joins_tensors_or_leaves_the_decision_to_numpy():
    join = training.concatenate_outputs
    assert join([torch.ones(2, 3), torch.ones(2, 5)]) is None  # widths differ
    assert join([np.ones((2, 3)), torch.ones(2, 3)]) is None  # not all tensors
    grads = torch.ones(2, 2, requires_grad=True) * 3  # an output that requires grad
    joined = join([grads, torch.full((1, 2), 2.0)])
    assert isinstance(joined, np.ndarray)
    np.testing.assert_array_equal(joined, [[3, 3], [3, 3], [2, 2]])
    bf16 = join([torch.ones(1, 2, dtype=torch.bfloat16)] * 2)
    assert str(bf16.dtype) == "bfloat16" and bf16.shape == (2, 2)
