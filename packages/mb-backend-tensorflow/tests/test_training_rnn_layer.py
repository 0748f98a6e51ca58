"""training primitives (gradients vs finite differences and vs JAX, tf.function/XLA,
n steps per call, fused updates), the generic rnn loop, and the layer mixin."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import tensorflow as tf
from _helpers import assert_close, numeric_grad

import mb_ops
from mb_backend_tensorflow import core, export, layer, rnn, training

RNG = np.random.default_rng(3)
X = RNG.standard_normal((6, 3))
Y = RNG.standard_normal((6, 2))
W0 = [RNG.standard_normal((3, 4)), RNG.standard_normal((4,)), RNG.standard_normal((4, 2))]


def _loss_np(w, x=X, y=Y):
    h = np.tanh(x @ w[0] + w[1])
    return np.mean((h @ w[2] - y) ** 2)


def _loss_tf(w, x, y):
    h = tf.tanh(tf.matmul(x, w[0]) + w[1])
    return tf.reduce_mean(tf.square(tf.matmul(h, w[2]) - y))


def test_value_and_grad_matches_finite_differences():
    value, grads = training.value_and_grad(_loss_tf)([tf.constant(w) for w in W0], X, Y)
    assert_close(value, _loss_np(W0), dtype="float64")
    for i, g in enumerate(grads):

        def one(wi, i=i):
            w = list(W0)
            w[i] = wi
            return _loss_np(w)

        # float64, eps 1e-3 central differences: error O(eps^2) ~ 1e-6.
        assert_close(g, numeric_grad(one, W0[i]), rtol=1e-5, atol=1e-6)


def test_value_and_grad_matches_jax():
    def loss_jax(w, x, y):
        h = jnp.tanh(x @ w[0] + w[1])
        return jnp.mean((h @ w[2] - y) ** 2)

    # Both engines in float32 (JAX's default); tolerance 1e-5.
    w32 = [w.astype("float32") for w in W0]
    x32, y32 = X.astype("float32"), Y.astype("float32")
    ref_value, ref_grads = jax.value_and_grad(loss_jax)([jnp.asarray(w) for w in w32], x32, y32)
    value, grads = training.value_and_grad(_loss_tf)([tf.constant(w) for w in w32], x32, y32)
    assert_close(value, float(ref_value))
    for g, r in zip(grads, ref_grads, strict=True):
        assert_close(g, np.asarray(r))


def test_value_and_grad_with_aux_several_argnums_and_unused_inputs():
    def fn(a, b, c):
        return tf.reduce_sum(a * b), {"prod": a * b}

    (value, aux), (ga, gc) = training.value_and_grad(fn, argnums=(0, 2), has_aux=True)(
        np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([5.0])
    )
    assert float(value) == 11.0 and aux["prod"].numpy().tolist() == [3.0, 8.0]
    assert ga.numpy().tolist() == [3.0, 4.0] and gc.numpy().tolist() == [0.0]
    with pytest.raises(ValueError, match="scalar"):
        training.value_and_grad(lambda a: a * 2)(np.ones(2))


@pytest.mark.parametrize("jit_compile", [False, True])
def test_jit_builds_a_graph_and_keeps_variables_stateful(jit_compile):
    v = core.Variable(np.zeros(2, "float32"))
    traced = []

    def step(x):
        traced.append(1)
        v.assign_add(x)
        return tf.reduce_sum(v.value)

    fast = training.jit(step, jit_compile=jit_compile, donate_argnums=0)
    for _ in range(3):
        out = fast(tf.constant([1.0, 2.0]))
    assert float(out) == 9.0 and len(traced) == 1  # traced once, run three times
    np.testing.assert_array_equal(v.numpy(), [3.0, 6.0])
    with pytest.raises(TypeError, match="unknown options"):
        training.jit(step, cache=True)


def _sgd_step(state, batch):
    x, y = batch
    loss, grads = training.value_and_grad(_loss_tf)(state, x, y)
    return [w - 0.1 * g for w, g in zip(state, grads, strict=True)], {"loss": loss}


@pytest.mark.parametrize("unroll", [1, True])
def test_multi_step_equals_separate_steps(unroll):
    batches = [(X[i : i + 2], Y[i : i + 2]) for i in range(0, 6, 2)]
    state = [tf.constant(w) for w in W0]
    for b in batches:
        state, logs = _sgd_step(state, b)
    run = training.multi_step(_sgd_step, 3, unroll=unroll)
    fused_state, fused_logs = run([tf.constant(w) for w in W0], batches)
    for a, b in zip(fused_state, state, strict=True):
        assert_close(a, b, dtype="float64")
    assert_close(fused_logs["loss"], logs["loss"], dtype="float64")
    with pytest.raises(ValueError, match="needs 3 batches"):
        run([tf.constant(w) for w in W0], batches[:2])


def test_multi_step_with_variables_updated_in_place():
    v = core.Variable(np.zeros((), "float32"))

    def step(state, batch):
        v.assign_add(tf.reduce_sum(batch))
        return state, {"total": v.value + 0.0}

    run = training.multi_step(step, 4, jit_compile=True)
    _, logs = run((), np.ones((4, 2), "float32"))
    assert float(v.numpy()) == 8.0 and float(logs["total"]) == 8.0


def _shift_right(images):
    # ImageProjectiveTransformV3 (behind RandomRotation/Perspective/Zoom) has no XLA
    # kernel on the CPU.
    return tf.raw_ops.ImageProjectiveTransformV3(
        images=images,
        transforms=tf.constant([[1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0]]),
        output_shape=tf.shape(images)[1:3],
        fill_value=tf.constant(0.0),
        interpolation="NEAREST",
        fill_mode="CONSTANT",
    )


def test_jit_compile_runs_ops_xla_cannot_compile_as_a_graph_with_a_warning():
    images = np.arange(2 * 4 * 4 * 1, dtype="float32").reshape(2, 4, 4, 1)
    expected = np.zeros_like(images)
    expected[:, :, 1:] = images[:, :, :-1]
    v = core.Variable(np.zeros((), "float32"))

    def step(x):
        v.assign_add(1.0)  # runs once per call: the failed XLA compile ran nothing
        return _shift_right(x)

    compiled = training.jit(step, jit_compile=True)
    with pytest.warns(UserWarning, match="XLA cannot compile ImageProjectiveTransformV3"):
        out = compiled(images)
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(compiled(images).numpy(), expected)  # no second warning
    assert float(v.numpy()) == 2.0

    run = training.multi_step(lambda s, x: (s, _shift_right(x)), 2, jit_compile=True)
    with pytest.warns(UserWarning, match="XLA cannot compile"):
        _, out = run((), np.stack([images, images]))
    np.testing.assert_array_equal(out.numpy(), expected)


def test_fused_update_applies_momentum_to_every_tensor():
    def momentum(p, g, m, lr):
        m = 0.9 * m + g
        return p - lr * m, m

    params = [
        RNG.standard_normal((3,)).astype("float32"),
        RNG.standard_normal((2, 2)).astype("float32"),
    ]
    grads = [np.ones((3,), "float32"), np.full((2, 2), 2.0, "float32")]
    moms = [np.full((3,), 0.5, "float32"), np.zeros((2, 2), "float32")]
    for jit_compile in (False, True):
        new_p, new_m = training.fused_update(
            momentum, params, grads, moms, scalars=(0.1,), jit_compile=jit_compile
        )
        for p, g, m, np_, nm in zip(params, grads, moms, new_p, new_m, strict=True):
            assert_close(nm, 0.9 * m + g)
            assert_close(np_, p - 0.1 * (0.9 * m + g))
    only = training.fused_update(lambda p, g: p - g, params, grads)
    assert_close(only[1], params[1] - grads[1])


# ----- rnn -----------------------------------------------------------------------------


def _numpy_rnn(x, h0, w, u, mask=None, backwards=False, zero_output=False):
    steps = range(x.shape[1] - 1, -1, -1) if backwards else range(x.shape[1])
    h, outs, prev = h0, [], np.zeros_like(h0)
    for t in steps:
        new = np.tanh(x[:, t] @ w + h @ u)
        if mask is not None:
            m = mask[:, t][:, None]
            out = np.where(m, new, 0.0 if zero_output else prev)
            h = np.where(m, new, h)
        else:
            out, h = new, new
        outs.append(out)
        prev = out
    return np.stack(outs, 1), h


@pytest.mark.parametrize("unroll", [False, True])
@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("zero_output", [False, True])
def test_rnn_matches_a_numpy_loop(unroll, go_backwards, zero_output):
    x = RNG.standard_normal((2, 5, 3)).astype("float32")
    w, u = (
        RNG.standard_normal((3, 4)).astype("float32"),
        RNG.standard_normal((4, 4)).astype("float32"),
    )
    mask = np.array([[1, 1, 1, 0, 1], [1, 0, 1, 1, 0]], bool)
    h0 = np.zeros((2, 4), "float32")

    def cell(x_t, states):
        h = tf.tanh(tf.matmul(x_t, w) + tf.matmul(states[0], u))
        return h, [h]

    @tf.function
    def run(x):
        return rnn.rnn(
            cell,
            x,
            [h0],
            go_backwards=go_backwards,
            mask=mask,
            unroll=unroll,
            zero_output_for_mask=zero_output,
        )

    last, outputs, states = run(x)
    ref_out, ref_h = _numpy_rnn(x, h0, w, u, mask, go_backwards, zero_output)
    assert_close(outputs, ref_out, atol=1e-5)
    assert_close(states[0], ref_h, atol=1e-5)
    assert_close(last, ref_out[:, -1], atol=1e-5)
    last_only = rnn.rnn(cell, x, [h0], return_all_outputs=False)[1]
    assert tuple(last_only.shape) == (2, 1, 4)


def test_fused_lstm_and_gru_defer_to_the_generic_loop():
    with pytest.raises(NotImplementedError, match="tensorflow backend"):
        rnn.lstm(*[None] * 9)
    with pytest.raises(NotImplementedError, match="tensorflow backend"):
        rnn.gru(*[None] * 8)
    assert rnn.cudnn_ok("tanh", "sigmoid", False, True) is False


# ----- layer mixin ---------------------------------------------------------------------


class ToyDense(layer.BackendLayer):
    """A minimal layer on mb_ops variables, as mb_layers.Layer would hold them."""

    def __init__(self, units, in_dim):
        self.kernel = mb_ops.Variable(RNG.standard_normal((in_dim, units)).astype("float32") * 0.1)
        self.bias = mb_ops.Variable(np.zeros(units, "float32"))

    @property
    def trainable_variables(self):
        return [self.kernel, self.bias]

    def __call__(self, x):
        return tf.matmul(x, self.kernel) + self.bias


def test_a_plain_tensorflow_loop_trains_an_mb_layer():
    model = ToyDense(1, 3)
    x = RNG.standard_normal((64, 3)).astype("float32")
    y = x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        values = [v.value for v in model.trainable_variables]
        grads = tape.gradient(loss, values)
        for v, g in zip(model.trainable_variables, grads, strict=True):
            v.assign_sub(0.1 * g)
        return loss

    first = float(step())
    for _ in range(200):
        last = float(step())
    assert last < 1e-3 < first
    assert_close(model.kernel.numpy().ravel(), [1.0, -2.0, 0.5], atol=1e-2)


def test_export_traces_a_tf_function_and_refuses_torch_programs():
    from types import SimpleNamespace as Spec

    w = tf.Variable(tf.ones((3, 2)))
    serve = export.to_tf_function(
        lambda values, x: tf.matmul(x, w), [w], [Spec(name="x", shape=(None, 3), dtype="float32")]
    )
    assert serve(tf.ones((4, 3))).numpy().tolist() == [[3.0, 3.0]] * 4
    assert "to_exported_program" in export.UNSUPPORTED
    with pytest.raises(NotImplementedError, match="tensorflow backend"):
        export.to_exported_program()
