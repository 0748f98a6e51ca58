"""layer: mb state inside user-written jax.jit / jax.grad, with a toy layer on mb_ops."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mb_ops
from mb_backend_jax import core, layer
from mb_backend_jax import numpy as mnp


class ToyDense(layer.BackendLayer):
    """y = x @ kernel + bias, and a non-trainable call counter updated by assign."""

    def __init__(self, units, inputs):
        rng = np.random.default_rng(0)
        self.kernel = core.Variable(rng.normal(size=(inputs, units)).astype("float32"), name="k")
        self.bias = core.Variable(np.zeros(units, "float32"), name="b")
        self.calls = core.Variable(np.zeros((), "float32"), trainable=False, name="calls")

    @property
    def variables(self):
        return [self.kernel, self.bias, self.calls]

    def __call__(self, x):
        self.calls.assign_add(1.0)
        return mnp.add(mnp.matmul(x, self.kernel), self.bias)


def _loss(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


def test_layer_passed_to_jit_uses_live_values_and_returns_new_state():
    model = ToyDense(2, 3)
    x = jnp.ones((4, 3))

    @jax.jit
    def forward(m, x):
        return m(x), m

    out, bound = forward(model, x)
    expected = np.ones((4, 3)) @ model.kernel.numpy()
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6)
    assert isinstance(bound, layer.BoundLayer)
    assert float(bound.values_by_path()["calls"]) == 1.0
    assert float(model.calls.numpy()) == 0.0  # nothing changes until commit
    bound.commit()
    assert float(model.calls.numpy()) == 1.0
    # A new weight is seen by the same compiled function (no stale constant).
    model.kernel.assign(np.zeros((3, 2), "float32"))
    out, _ = forward(model, x)
    np.testing.assert_allclose(np.asarray(out), np.zeros((4, 2)))


def test_grad_with_respect_to_a_layer_matches_the_closed_form():
    model = ToyDense(2, 3)
    x = jnp.asarray(np.random.default_rng(1).normal(size=(5, 3)), "float32")
    y = jnp.zeros((5, 2))
    grads = jax.grad(_loss)(model, x, y)
    by_path = grads.values_by_path()
    residual = np.asarray(x) @ model.kernel.numpy() - 0.0
    want_kernel = 2 * np.asarray(x).T @ residual / residual.size
    np.testing.assert_allclose(np.asarray(by_path["k"]), want_kernel, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        np.asarray(by_path["b"]), 2 * residual.sum(0) / residual.size, rtol=1e-5, atol=1e-6
    )


def test_a_user_written_training_loop_with_jit_and_grad():
    model = ToyDense(1, 2)
    rng = np.random.default_rng(2)
    x = jnp.asarray(rng.normal(size=(64, 2)), "float32")
    y = x @ jnp.array([[2.0], [-1.0]]) + 0.5

    @jax.jit
    def step(m, x, y):
        loss, grads = jax.value_and_grad(_loss)(m, x, y)
        new_values = [v - 0.1 * g for v, g in zip(m.values, grads.values, strict=True)]
        return loss, m.with_values(new_values)

    first = None
    for _ in range(200):
        loss, bound = step(model, x, y)
        bound.commit()
        first = first if first is not None else float(loss)
    assert float(loss) < 1e-3 < first
    np.testing.assert_allclose(model.kernel.numpy().ravel(), [2.0, -1.0], atol=0.02)
    np.testing.assert_allclose(model.bias.numpy(), [0.5], atol=0.02)


def test_functional_pattern_is_pure():
    model = ToyDense(2, 3)
    pure = layer.functional(model, model.variables)
    values = [v.value for v in model.variables]
    out, new_values = jax.jit(pure)(values, jnp.ones((1, 3)))
    assert out.shape == (1, 2)
    assert float(new_values[2]) == 1.0 and float(model.calls.numpy()) == 0.0
    with pytest.raises(ValueError, match="expected 3 values"):
        pure(values[:2], jnp.ones((1, 3)))


def test_commit_inside_a_transformation_is_refused():
    model = ToyDense(2, 3)

    @jax.jit
    def bad(m):
        m(jnp.ones((1, 3)))
        m.commit()
        return 0

    with pytest.raises(ValueError, match="inside a JAX transformation"):
        bad(model)


def test_a_class_without_variables_is_reported():
    class NoState(layer.BackendLayer):
        pass

    with pytest.raises(TypeError, match="variables"):
        jax.tree_util.tree_leaves(NoState())


def test_stateless_scope_still_wins_inside_a_bound_call():
    model = ToyDense(2, 3)
    zeros = [jnp.zeros_like(v.value) for v in model.variables]
    with mb_ops.StatelessScope(state_mapping=list(zip(model.variables, zeros, strict=True))):
        assert float(jnp.sum(model(jnp.ones((1, 3))))) == 0.0
