"""Training primitives: gradients vs finite differences, jit, multi_step, fused updates.

Finite differences use float64 and central differences (step 1e-6, tolerance 1e-6).
Optimizer updates are compared with NumPy versions of Keras's formulas (1e-6).
"""

import numpy as np
import pytest
import torch

from mb_backend_torch import nn, training
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


def _keras_adam(p, g, m, v, step, lr, b1, b2, eps, wd):
    p = p - p * wd * lr
    lr_t = lr * np.sqrt(1 - b2**step) / (1 - b1**step)
    m = m + (g - m) * (1 - b1)
    v = v + (g * g - v) * (1 - b2)
    return p - lr_t * m / (np.sqrt(v) + eps), m, v


@pytest.mark.parametrize("weight_decay", [0.0, 0.01])
def test_foreach_adam_matches_keras_formula(weight_decay):
    shapes = [(3,), (2, 4), ()]
    p = [RNG.normal(size=s) for s in shapes]
    g = [RNG.normal(size=s) for s in shapes]
    m = [RNG.normal(size=s) * 0.1 for s in shapes]
    v = [np.abs(RNG.normal(size=s)) * 0.1 for s in shapes]
    tp, tg, tm, tv = ([torch.tensor(a) for a in group] for group in (p, g, m, v))
    training.foreach_adam(tp, tg, tm, tv, step=3, learning_rate=0.01, weight_decay=weight_decay)
    for i in range(len(shapes)):
        ep, em, ev = _keras_adam(p[i], g[i], m[i], v[i], 3, 0.01, 0.9, 0.999, 1e-7, weight_decay)
        np.testing.assert_allclose(tp[i].numpy(), ep, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(tm[i].numpy(), em, rtol=1e-6)
        np.testing.assert_allclose(tv[i].numpy(), ev, rtol=1e-6)


@pytest.mark.parametrize("nesterov", [False, True])
def test_foreach_sgd_matches_keras_formula(nesterov):
    p = [RNG.normal(size=(3,)), RNG.normal(size=(2, 2))]
    g = [RNG.normal(size=a.shape) for a in p]
    m = [RNG.normal(size=a.shape) for a in p]
    tp, tg, tm = ([torch.tensor(a) for a in group] for group in (p, g, m))
    training.foreach_sgd(tp, tg, tm, learning_rate=0.1, momentum=0.9, nesterov=nesterov)
    for i in range(2):
        mom = 0.9 * m[i] - 0.1 * g[i]
        expected = p[i] + (0.9 * mom - 0.1 * g[i] if nesterov else mom)
        np.testing.assert_allclose(tp[i].numpy(), expected, rtol=1e-12)
        np.testing.assert_allclose(tm[i].numpy(), mom, rtol=1e-12)
    plain = [torch.tensor(a) for a in p]
    training.foreach_sgd(plain, tg, learning_rate=0.1)
    np.testing.assert_allclose(plain[0].numpy(), p[0] - 0.1 * g[0])
