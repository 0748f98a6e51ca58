"""core: conversion, Variable, control flow, indexing, gradient helpers."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mb_ops
from mb_backend_jax import core


def test_convert_to_tensor_keeps_jax_arrays_and_casts_on_request():
    x = jnp.arange(3.0)
    assert core.convert_to_tensor(x) is x
    assert core.convert_to_tensor(x, dtype="int32").dtype == jnp.int32
    assert core.convert_to_tensor([1, 2], dtype="bfloat16").dtype == jnp.bfloat16
    assert core.cast(np.ones(2), "float16").dtype == jnp.float16


def test_convert_to_tensor_refuses_sparse_and_ragged():
    with pytest.raises(ValueError, match="ragged"):
        core.convert_to_tensor([1], ragged=True)
    with pytest.raises(ValueError, match="sparse"):
        core.convert_to_tensor([1], sparse=True)


def test_convert_to_numpy_keeps_bfloat16():
    out = core.convert_to_numpy(jnp.ones(2, "bfloat16"))
    assert isinstance(out, np.ndarray)
    assert str(out.dtype) == "bfloat16"


def test_variable_reads_assigns_and_unwraps():
    v = core.Variable(np.ones((2, 3), "float32"), name="w")
    assert isinstance(v, mb_ops.Variable)
    assert core.convert_to_tensor(v).shape == (2, 3)
    assert jnp.asarray(v).dtype == jnp.float32
    v.assign(np.full((2, 3), 2.0))
    np.testing.assert_array_equal(np.asarray(v.value), np.full((2, 3), 2.0))
    assert core.convert_to_tensor(v, dtype="int32").dtype == jnp.int32


def test_variable_read_honours_stateless_scope():
    v = core.Variable(np.zeros(3, "float32"))
    with mb_ops.StatelessScope(state_mapping=[(v, jnp.ones(3))]) as scope:
        np.testing.assert_array_equal(np.asarray(v.value), np.ones(3))
        v.assign(jnp.full(3, 5.0))
        new = scope.get_current_value(v)
    np.testing.assert_array_equal(np.asarray(new), np.full(3, 5.0))
    np.testing.assert_array_equal(np.asarray(v.value), np.zeros(3))


def test_variable_is_a_pytree_so_grad_and_jit_accept_it():
    v = core.Variable(np.array([1.0, 2.0, 3.0], "float32"))
    grad = jax.grad(lambda w: jnp.sum(w.value**2))(v)
    np.testing.assert_allclose(np.asarray(grad.value), 2 * np.array([1.0, 2.0, 3.0]))
    doubled = jax.jit(lambda w: w.value * 2)(v)
    np.testing.assert_allclose(np.asarray(doubled), [2.0, 4.0, 6.0])
    # A fresh value is picked up without retracing surprises.
    v.assign(np.zeros(3, "float32"))
    np.testing.assert_allclose(np.asarray(jax.jit(lambda w: w.value * 2)(v)), np.zeros(3))


def test_cond_switch_and_loops_trace_under_jit():
    @jax.jit
    def f(x):
        a = core.cond(x > 0, lambda: x * 2, lambda: -x)
        b = core.switch(1, [lambda y: y + 1, lambda y: y + 2], x)
        c = core.fori_loop(0, 4, lambda i, s: s + i, 0)
        d = core.while_loop(lambda i: i < 10, lambda i: i + 3, 0)
        e = core.while_loop(lambda i, s: True, lambda i, s: (i + 1, s * 2), (0, 1), 5)
        return a, b, c, d, e

    a, b, c, d, e = f(3.0)
    assert (float(a), float(b), int(c), int(d)) == (6.0, 5.0, 6, 12)
    assert (int(e[0]), int(e[1])) == (5, 32)


def test_scan_matches_cumulative_sum():
    xs = np.arange(5.0, dtype="float32")
    carry, ys = core.scan(lambda c, x: (c + x, c + x), 0.0, xs)
    np.testing.assert_allclose(np.asarray(ys), np.cumsum(xs))
    assert float(carry) == pytest.approx(10.0)
    with pytest.raises(ValueError, match="unroll"):
        core.scan(lambda c, x: (c, x), 0.0, xs, unroll=0)


def test_map_vectorized_map_and_associative_scan():
    xs = np.arange(6.0, dtype="float32").reshape(3, 2)
    np.testing.assert_allclose(np.asarray(core.map(lambda r: r.sum(), xs)), xs.sum(1))
    np.testing.assert_allclose(np.asarray(core.vectorized_map(lambda r: r * 2, xs)), xs * 2)
    out = core.associative_scan(lambda a, b: a + b, np.arange(5.0))
    np.testing.assert_allclose(np.asarray(out), np.cumsum(np.arange(5.0)))


def test_scatter_and_scatter_update_match_numpy():
    out = core.scatter([[0, 1], [2, 0], [0, 1]], np.array([1.0, 2.0, 3.0]), (3, 2))
    expected = np.zeros((3, 2))
    np.add.at(expected, ([0, 2, 0], [1, 0, 1]), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(out), expected)
    base = np.arange(6.0).reshape(3, 2)
    upd = core.scatter_update(base, [[1, 1]], np.array([9.0]))
    expected = base.copy()
    expected[1, 1] = 9.0
    np.testing.assert_allclose(np.asarray(upd), expected)
    added = core.scatter_update(base, [[1, 1]], np.array([9.0]), reduction="add")
    assert float(added[1, 1]) == 12.0
    with pytest.raises(ValueError, match="reduction"):
        core.scatter_update(base, [[0, 0]], np.array([1.0]), reduction="avg")


def test_slice_slice_update_and_unstack():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(np.asarray(core.slice(x, (1, 1), (2, -1))), x[1:3, 1:])
    upd = core.slice_update(x, (0, 2), np.zeros((2, 2)))
    expected = x.copy()
    expected[0:2, 2:4] = 0
    np.testing.assert_allclose(np.asarray(upd), expected)
    parts = core.unstack(x, axis=1)
    assert len(parts) == 4
    np.testing.assert_allclose(np.asarray(parts[2]), x[:, 2])
    with pytest.raises(ValueError, match="num=3"):
        core.unstack(x, num=3, axis=1)


def test_stop_gradient_blocks_the_gradient():
    grad = jax.grad(lambda x: jnp.sum(core.stop_gradient(x) * x))(jnp.ones(3))
    np.testing.assert_allclose(np.asarray(grad), np.ones(3))


def test_custom_gradient_replaces_the_gradient():
    @core.custom_gradient
    def clipped_identity(x):
        def grad_fn(upstream):
            return jnp.clip(upstream, -0.5, 0.5)

        return x, grad_fn

    grad = jax.grad(lambda x: jnp.sum(clipped_identity(x) * 3.0))(jnp.ones(2))
    np.testing.assert_allclose(np.asarray(grad), [0.5, 0.5])


def test_remat_keeps_values_and_gradients():
    f = core.remat(lambda x: jnp.sin(x) ** 2)
    x = jnp.linspace(0.0, 1.0, 4)
    np.testing.assert_allclose(
        np.asarray(jax.grad(lambda x: jnp.sum(f(x)))(x)), np.sin(2 * np.asarray(x)), rtol=1e-6
    )


def test_device_scope_places_arrays_and_rejects_unknown_devices():
    with core.device_scope("cpu:0"):
        x = jnp.ones(2)
    assert next(iter(x.devices())).platform == "cpu"
    with pytest.raises(ValueError, match="device"):
        core.device_scope(3)
    with pytest.raises(ValueError, match="cpu"):
        core.device_scope("cpu:99")


def test_flags_and_seed_dtype():
    assert core.IS_THREAD_SAFE is True
    assert core.SUPPORTS_RAGGED_TENSORS is False
    assert core.random_seed_dtype() == "uint32"
    assert core.shape(jnp.ones((2, 5))) == (2, 5)
    assert core.is_tensor(jnp.ones(1)) and not core.is_tensor(np.ones(1))


def test_compute_output_spec_runs_nothing_and_keeps_unknown_dims():
    calls = []

    def fn(x, w, scale):
        calls.append(type(x))
        return jnp.tanh(x @ w) * scale, jnp.sum(x, axis=0)

    x = mb_ops.KerasTensor((None, 3), dtype="float32")
    w = mb_ops.KerasTensor((3, 5), dtype="float16")
    out, total = core.compute_output_spec(fn, x, w, 2.0)
    assert isinstance(out, mb_ops.KerasTensor)
    assert out.shape == (None, 5) and out.dtype == "float32"
    assert total.shape == (3,)
    assert all(t is not np.ndarray for t in calls)
    nested = core.compute_output_spec(lambda d: {"y": d["a"] + 1}, {"a": x})
    assert nested["y"].shape == (None, 3)
