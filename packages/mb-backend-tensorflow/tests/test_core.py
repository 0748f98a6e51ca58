"""core: conversion, Variable, control flow, scatter/slice, gradients, devices."""

import jax.numpy as jnp
import numpy as np
import pytest
import tensorflow as tf
import torch
from _helpers import assert_close

import mb_ops
from mb_backend_tensorflow import core, distribution


def test_python_scalars_convert_like_keras():
    assert core.convert_to_tensor(1.5).dtype == tf.float32
    assert core.convert_to_tensor(3).dtype == tf.int32
    assert core.convert_to_tensor(np.zeros(2)).dtype == tf.float64
    assert core.convert_to_tensor([1.7, -2.2], dtype="int32").numpy().tolist() == [1, -2]
    assert core.convert_to_tensor([0, 2], dtype="bool").numpy().tolist() == [False, True]
    mixed = core.convert_to_tensor([tf.constant(1.0), 2.0])
    assert mixed.numpy().tolist() == [1.0, 2.0]


def test_torch_tensor_converts_without_a_copy():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = core.convert_to_tensor(t)
    t.add_(100.0)  # visible through the TF tensor: the buffer is shared (DLPack)
    np.testing.assert_array_equal(x.numpy(), np.arange(6).reshape(2, 3) + 100.0)


def test_unaligned_or_strided_torch_views_are_copied_not_shared():
    # TF aborts on buffers that are not 64-byte aligned: such views must be copied.
    base = torch.arange(1 << 16, dtype=torch.float32)
    view = base[1:]
    x = core.convert_to_tensor(view)
    base.add_(1.0)
    np.testing.assert_array_equal(x.numpy()[:3], [1.0, 2.0, 3.0])  # a copy
    assert float(tf.reduce_sum(x)) == float(np.arange(1, 1 << 16, dtype=np.float64).sum())
    t = core.convert_to_tensor(torch.arange(6.0).reshape(2, 3).T)
    np.testing.assert_array_equal(t.numpy(), np.arange(6.0).reshape(2, 3).T)


def test_jax_and_grad_requiring_torch_tensors_convert():
    np.testing.assert_array_equal(core.convert_to_tensor(jnp.arange(4.0)).numpy(), np.arange(4.0))
    x = core.convert_to_tensor(torch.ones(3, requires_grad=True))
    assert x.dtype == tf.float32 and x.numpy().tolist() == [1.0, 1.0, 1.0]
    back = torch.from_dlpack(core.to_dlpack(tf.constant([1.0, 2.0])))
    assert back.tolist() == [1.0, 2.0]


def test_shape_is_a_tuple_with_dynamic_entries_in_graphs():
    assert core.shape(np.zeros((2, 3))) == (2, 3)

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        dims = core.shape(x)
        assert dims[1] == 3 and tf.is_tensor(dims[0])
        return dims[0] * dims[1]

    assert int(f(tf.zeros((4, 3)))) == 12


def test_cast_and_numpy_round_trip():
    x = core.cast([1.6, -0.4], "int32")
    assert x.dtype == tf.int32
    out = core.convert_to_numpy(core.cast(x, "bfloat16"))
    assert str(out.dtype) == "bfloat16"


def test_variable_wraps_a_tf_variable_and_assigns_live_state():
    v = core.Variable(np.array([1.0, 2.0]), dtype="float32", name="v")
    assert isinstance(v.value, tf.Variable) and v.dtype == "float32" and v.shape == (2,)
    v.assign([3.0, 4.0])
    v.assign_add([1.0, 1.0])
    np.testing.assert_array_equal(v.numpy(), [4.0, 5.0])
    assert tf.add(v, 1.0).numpy().tolist() == [5.0, 6.0]  # converts like a tensor
    assert core.convert_to_tensor(v).numpy().tolist() == [4.0, 5.0]


def test_variable_reads_honour_a_stateless_scope():
    v = core.Variable(np.ones(3, "float32"))
    with mb_ops.StatelessScope([(v, np.full(3, 7.0, "float32"))]) as scope:
        assert core.convert_to_numpy(v.value).tolist() == [7.0] * 3
        v.assign(np.zeros(3, "float32"))
        assert core.convert_to_numpy(v.value).tolist() == [0.0] * 3
    np.testing.assert_array_equal(v.numpy(), np.ones(3))  # live value untouched
    assert core.convert_to_numpy(scope.get_current_value(v)).tolist() == [0.0] * 3


def test_variable_from_initializer_inside_tf_function_and_gradient_tape():
    v = core.Variable(lambda shape, dtype: tf.ones(shape, dtype), shape=(2,), dtype="float32")

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(v.value))
        grad = tape.gradient(loss, v.value)
        v.assign_sub(0.25 * grad)
        return loss

    assert float(step()) == 2.0
    np.testing.assert_allclose(v.numpy(), [0.5, 0.5])


def test_cond_and_loops_work_inside_tf_function():
    @tf.function
    def f(x):
        a = core.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0)
        b = core.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + a), (0, tf.zeros_like(a)))
        c = core.fori_loop(0, 4, lambda i, s: s + tf.cast(i, s.dtype), tf.constant(0.0))
        return a, b[1], c

    a, b, c = f(tf.constant([1.0, 2.0]))
    assert a.numpy().tolist() == [2.0, 4.0] and b.numpy().tolist() == [6.0, 12.0]
    assert float(c) == 6.0
    a, _, _ = f(tf.constant([-1.0, -2.0]))
    assert a.numpy().tolist() == [-2.0, -3.0]


def test_switch_clips_the_branch_index():
    branches = [lambda x: x + 1, lambda x: x * 10]
    assert int(core.switch(0, branches, 2)) == 3
    assert int(core.switch(5, branches, 2)) == 20


def test_scan_matches_a_python_loop_forward_and_reverse():
    xs = np.arange(1.0, 6.0, dtype="float32")
    for reverse in (False, True):
        carry, ys = core.scan(lambda c, x: (c + x, c * x), 0.0, xs, reverse=reverse)
        c, expected = 0.0, [0.0] * 5
        for i in reversed(range(5)) if reverse else range(5):
            expected[i] = c * xs[i]
            c += xs[i]
        assert float(carry) == c
        np.testing.assert_allclose(ys.numpy(), expected)
    carry, ys = core.scan(lambda c, _: (c * 2, None), 1, length=4)
    assert int(carry) == 16 and ys is None


def test_associative_scan_is_a_cumulative_op():
    x = np.random.default_rng(0).standard_normal((7, 3)).astype("float32")
    assert_close(core.associative_scan(tf.add, x), np.cumsum(x, axis=0))
    assert_close(core.associative_scan(tf.add, x, axis=1), np.cumsum(x, axis=1))
    assert_close(core.associative_scan(tf.add, x, reverse=True), np.cumsum(x[::-1], axis=0)[::-1])
    pair = core.associative_scan(lambda a, b: (a[0] + b[0], a[1] * b[1]), (x, x))
    assert_close(pair[1], np.cumprod(x, axis=0), rtol=1e-4)


def test_map_and_vectorized_map_apply_per_row():
    x = np.arange(6.0, dtype="float32").reshape(3, 2)
    assert_close(core.map(lambda r: tf.reduce_sum(r), x), x.sum(1))
    assert_close(core.vectorized_map(lambda r: r * 2.0, x), x * 2)


def test_scatter_and_scatter_update():
    out = core.scatter([[0], [2], [0]], [1.0, 2.0, 3.0], (4,))
    assert out.numpy().tolist() == [4.0, 0.0, 2.0, 0.0]
    base = np.ones((3,), "float32")
    assert core.scatter_update(base, [[1]], [5.0]).numpy().tolist() == [1.0, 5.0, 1.0]
    added = core.scatter_update(base, [[1], [1]], [5.0, 1.0], reduction="add")
    assert added.numpy().tolist() == [1.0, 7.0, 1.0]
    mul = core.scatter_update(np.full(3, 2.0, "float32"), [[0], [0]], [3.0, 4.0], reduction="mul")
    assert mul.numpy().tolist() == [24.0, 2.0, 2.0]
    with pytest.raises(ValueError, match="reduction"):
        core.scatter_update(base, [[1]], [5.0], reduction="avg")


def test_slice_and_slice_update():
    x = np.arange(12, dtype="float32").reshape(3, 4)
    np.testing.assert_array_equal(core.slice(x, [1, 1], [2, 2]).numpy(), x[1:3, 1:3])
    out = core.slice_update(x, [1, 2], np.zeros((2, 2), "float32")).numpy()
    expected = x.copy()
    expected[1:3, 2:4] = 0
    np.testing.assert_array_equal(out, expected)
    assert [t.numpy().tolist() for t in core.unstack(x[:2, :2])] == [[0.0, 1.0], [4.0, 5.0]]


def test_stop_gradient_and_custom_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + core.stop_gradient(x * x)
    assert float(tape.gradient(y, x)) == 6.0

    @core.custom_gradient
    def clipped_identity(v):
        def grad(upstream):
            return tf.clip_by_value(upstream, -0.5, 0.5)

        return tf.identity(v), grad

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clipped_identity(x) * 4.0
    assert float(tape.gradient(y, x)) == 0.5


def test_compute_output_spec_traces_without_running():
    kt = mb_ops.KerasTensor((None, 3), "float32")
    spec = core.compute_output_spec(lambda t: tf.reduce_sum(t, axis=0, keepdims=True), kt)
    assert tuple(spec.shape) == (1, 3) and spec.dtype == "float32"


def test_device_scope_places_ops_and_lists_devices():
    with core.device_scope("cpu:0"):
        x = tf.constant([1.0]) + 1.0
    assert "CPU" in x.device
    assert distribution.list_devices("cpu") == ["cpu:0"]


@pytest.mark.gpu
def test_device_scope_places_ops_on_the_gpu():
    with core.device_scope("gpu:0"):
        x = tf.constant([1.0]) + 1.0
    assert "GPU" in x.device
    t = torch.ones(3, device="cuda")
    y = core.convert_to_tensor(t)  # DLPack keeps it on the GPU
    assert "GPU" in y.device and y.numpy().tolist() == [1.0] * 3


def test_flags_are_declared():
    assert core.IS_THREAD_SAFE is False
    assert core.random_seed_dtype() == "int64"
    assert isinstance(core.SUPPORTS_SPARSE_TENSORS, bool)


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "float16", "int64", "int32", "uint8", "bool", "complex64"]
)
def test_numpy_arrays_convert_like_tf_convert_to_tensor_and_are_copies(dtype):
    convert_to_tensor = core.convert_to_tensor
    host = (np.arange(64 * 64) % 5).reshape(64, 64).astype(dtype)
    expected = tf.convert_to_tensor(host)
    for source in (host, host[:, ::2]):
        got = convert_to_tensor(source)
        assert got.dtype == expected.dtype and got.device == expected.device
        np.testing.assert_array_equal(got.numpy(), source)
    kept = convert_to_tensor(host)
    host[...] = 0  # a data loader reusing its buffer must not change the tensor
    np.testing.assert_array_equal(kept.numpy(), expected.numpy())
