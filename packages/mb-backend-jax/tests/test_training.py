"""training: gradients against finite differences, compiled steps and fused updates.

Finite differences use float64 NumPy on the same formula, step 1e-3 (central);
tolerance rtol=1e-3, atol=1e-4 against float32 JAX gradients.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mb_backend_jax import nn, training

RNG = np.random.default_rng(3)


def _loss_numpy(w, b, x, y):
    pred = np.tanh(x @ w + b)
    return np.mean((pred - y) ** 2)


def _finite_difference(f, params, eps=1e-3):
    grads = []
    for i, p in enumerate(params):
        g = np.zeros_like(p)
        for idx in np.ndindex(p.shape):
            plus = [q.copy() for q in params]
            minus = [q.copy() for q in params]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = (f(*plus) - f(*minus)) / (2 * eps)
        grads.append(g)
    return grads


def test_value_and_grad_matches_finite_differences_with_aux():
    x = RNG.normal(size=(8, 3))
    y = RNG.normal(size=(8, 2))
    w = RNG.normal(size=(3, 2))
    b = RNG.normal(size=(2,))

    def loss(params, x, y):
        pred = jnp.tanh(x @ params[0] + params[1])
        value = jnp.mean((pred - y) ** 2)
        return value, {"pred_mean": jnp.mean(pred)}

    grad_fn = training.value_and_grad(loss, has_aux=True)
    params = [jnp.asarray(w, "float32"), jnp.asarray(b, "float32")]
    (value, aux), grads = grad_fn(params, jnp.asarray(x, "float32"), jnp.asarray(y, "float32"))
    assert float(value) == pytest.approx(_loss_numpy(w, b, x, y), rel=1e-5)
    assert set(aux) == {"pred_mean"}
    expected = _finite_difference(lambda w_, b_: _loss_numpy(w_, b_, x, y), [w, b])
    assert isinstance(grads, list) and len(grads) == 2
    for got, want in zip(grads, expected, strict=True):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-3, atol=1e-4)


def test_value_and_grad_over_several_arguments():
    fn = training.value_and_grad(lambda a, b: jnp.sum(a * b), argnums=(0, 1))
    value, (ga, gb) = fn(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]))
    assert float(value) == 11.0
    assert ga.tolist() == [3.0, 4.0] and gb.tolist() == [1.0, 2.0]


def test_jit_compiles_donates_and_accepts_static_args():
    calls = []

    def f(x, power):
        calls.append(1)
        return x**power

    compiled = training.jit(f, static_argnums=1)
    assert compiled(jnp.arange(3.0), 2).tolist() == [0.0, 1.0, 4.0]
    compiled(jnp.arange(3.0), 2)
    assert len(calls) == 1  # traced once, then cached
    eager = training.jit(f, jit_compile=False)
    assert eager is f
    with pytest.raises(TypeError, match="unknown options"):
        training.jit(f, mode="compile")


def _sgd_step(state, batch):
    w, step = state
    x, y = batch

    def loss(w):
        return jnp.mean((x @ w - y) ** 2)

    value, grad = jax.value_and_grad(loss)(w)
    return (w - 0.1 * grad, step + 1), {"loss": value, "step": step}


def test_multi_step_equals_n_single_steps():
    batches = [
        (
            jnp.asarray(RNG.normal(size=(4, 3)), "float32"),
            jnp.asarray(RNG.normal(size=(4,)), "float32"),
        )
        for _ in range(5)
    ]
    state = (jnp.zeros(3), jnp.array(0))
    expected_state = state
    for batch in batches:
        expected_state, expected_logs = _sgd_step(expected_state, batch)
    run = training.multi_step(_sgd_step, 5)
    got_state, got_logs = run((jnp.zeros(3), jnp.array(0)), batches)
    np.testing.assert_allclose(np.asarray(got_state[0]), np.asarray(expected_state[0]), rtol=1e-5)
    assert int(got_state[1]) == 5 and int(got_logs["step"]) == 4
    assert float(got_logs["loss"]) == pytest.approx(float(expected_logs["loss"]), rel=1e-5)
    stacked = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *batches)
    again, _ = run((jnp.zeros(3), jnp.array(0)), stacked)
    np.testing.assert_allclose(np.asarray(again[0]), np.asarray(expected_state[0]), rtol=1e-5)
    with pytest.raises(ValueError, match="needs 5 batches"):
        run((jnp.zeros(3), jnp.array(0)), batches[:3])
    with pytest.raises(ValueError, match="positive int"):
        training.multi_step(_sgd_step, 0)


def _momentum(param, grad, velocity, lr):
    velocity = 0.9 * velocity + grad
    return param - lr * velocity, velocity


def test_fused_update_applies_the_rule_to_every_tensor():
    params = [jnp.ones((2, 3)), jnp.full((4,), 2.0)]
    grads = [jnp.full((2, 3), 0.5), jnp.ones((4,))]
    velocity = [jnp.zeros((2, 3)), jnp.ones((4,))]
    new_params, new_velocity = training.fused_update(
        _momentum, params, grads, velocity, scalars=(0.1,)
    )
    for p, g, v, np_, nv in zip(params, grads, velocity, new_params, new_velocity, strict=True):
        want_v = 0.9 * np.asarray(v) + np.asarray(g)
        np.testing.assert_allclose(np.asarray(nv), want_v, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(np_), np.asarray(p) - 0.1 * want_v, rtol=1e-6)
    plain = training.fused_update(lambda p, g, lr: p - lr * g, params, grads, scalars=(1.0,))
    np.testing.assert_allclose(np.asarray(plain[1]), np.ones(4), rtol=1e-6)
    with pytest.raises(ValueError, match="slot"):
        training.fused_update(lambda p, g, v: p, params, grads, velocity)


@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("pool", ["max_pool", "average_pool"])
def test_pooling_differentiates_under_jit(pool, padding):
    # The conv nets of fit: pooling's gradient inside a jitted step equals eager's.
    fn = getattr(nn, pool)
    x = jnp.asarray(np.random.default_rng(0).standard_normal((2, 5, 5, 3)), "float32")

    def loss(v):
        return (fn(v, 2, strides=2, padding=padding) ** 2).sum()

    np.testing.assert_allclose(jax.jit(jax.grad(loss))(x), jax.grad(loss)(x), rtol=1e-6)


def test_compile_ahead_compiles_on_a_background_thread_for_those_shapes():
    def step(state, x):
        return [s + jnp.sum(x) for s in state]

    jitted = training.jit(step, donate_argnums=(0,))
    x = jnp.arange(6.0).reshape(2, 3)
    future = training.compile_ahead(jitted, [jnp.zeros(2)], x)
    executable = future.result(timeout=300)
    (out,) = executable([jnp.ones(2)], x)
    np.testing.assert_allclose(np.asarray(out), [16.0, 16.0])
    with pytest.raises(TypeError):
        executable([jnp.ones(2)], jnp.ones((4, 3)))  # other shapes: use the jitted function
    assert training.compile_ahead(step, [jnp.zeros(2)], x) is None  # not a jit result


def test_compile_ahead_compiles_a_multi_step_program_for_a_list_of_batches():
    # `steps_per_execution`'s scan compiles off the calling thread like a `jit` result:
    # its executable takes the same list of batches and gives multi_step's numbers.
    batches = [
        (
            jnp.asarray(RNG.normal(size=(4, 3)), "float32"),
            jnp.asarray(RNG.normal(size=(4,)), "float32"),
        )
        for _ in range(3)
    ]
    run = training.multi_step(_sgd_step, 3)
    future = training.compile_ahead(run, (jnp.zeros(3), jnp.array(0)), batches)
    executable = future.result(timeout=300)
    got_state, got_logs = executable((jnp.zeros(3), jnp.array(0)), batches)
    want_state, want_logs = run((jnp.zeros(3), jnp.array(0)), batches)
    np.testing.assert_allclose(np.asarray(got_state[0]), np.asarray(want_state[0]), rtol=1e-6)
    assert int(got_state[1]) == 3 and int(got_logs["step"]) == 2
    assert float(got_logs["loss"]) == pytest.approx(float(want_logs["loss"]), rel=1e-6)
    with pytest.raises(ValueError, match="needs 3 batches"):
        training.compile_ahead(run, (jnp.zeros(3), jnp.array(0)), batches[:2])
    eager = training.multi_step(_sgd_step, 3, jit_compile=False)
    assert training.compile_ahead(eager, (jnp.zeros(3), jnp.array(0)), batches) is None
