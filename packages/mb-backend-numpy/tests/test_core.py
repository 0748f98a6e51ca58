"""The core contract module: conversion, Variable, control flow, scatter and slices."""

import ml_dtypes
import numpy as np
import pytest
from _cases import floats, ints
from _keras_ref import keras_ops

from mb_backend_numpy import core


def test_convert_to_tensor_follows_mb_dtype_rules_for_python_values():
    assert core.convert_to_tensor(3).dtype == np.int32
    assert core.convert_to_tensor(3.5).dtype == np.float32
    assert core.convert_to_tensor(True).dtype == np.bool_
    assert core.convert_to_tensor([1, 2.5]).dtype == np.float32
    assert core.convert_to_tensor([[1, 2], [3, 4]]).dtype == np.int32
    assert core.convert_to_tensor([]).dtype == np.float32
    assert core.convert_to_tensor([1, 2], dtype="bfloat16").dtype == ml_dtypes.bfloat16


def test_convert_to_tensor_keeps_numpy_dtypes_and_casts_when_asked():
    x = floats(2, 3, dtype="float64")
    assert core.convert_to_tensor(x) is x
    out = core.convert_to_tensor(x, dtype="float16")
    assert out.dtype == np.float16
    np.testing.assert_allclose(out, x, rtol=1e-3, atol=1e-3)
    assert core.convert_to_tensor(np.float32(2.0)).shape == ()


def test_convert_to_tensor_refuses_sparse_and_ragged_with_a_clear_error():
    with pytest.raises(ValueError, match="sparse=True is not supported on the numpy backend"):
        core.convert_to_tensor([1.0], sparse=True)
    with pytest.raises(ValueError, match="ragged=True is not supported"):
        core.convert_to_tensor([1.0], ragged=True)


def test_variable_is_unwrapped_and_owns_a_copy_of_its_value():
    source = np.ones(3, dtype="float32")
    v = core.Variable(source)
    source[0] = 5.0
    np.testing.assert_array_equal(core.convert_to_tensor(v), np.ones(3))
    assert core.convert_to_tensor(v, dtype="int32").dtype == np.int32
    v.assign([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(core.convert_to_numpy(v), [1.0, 2.0, 3.0])
    v.assign_add(np.ones(3, "float32"))
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0, 4.0])
    assert core.convert_to_tensor([v, v]).shape == (2, 3)
    assert core.shape(v) == (3,)


def test_cast_and_shape():
    x = floats(2, 3)
    assert core.cast(x, "int32").dtype == np.int32
    assert core.cast(x, "bfloat16").dtype == ml_dtypes.bfloat16
    assert core.shape(x) == (2, 3)
    assert core.is_tensor(x) and core.is_tensor(np.float32(1)) and not core.is_tensor([1])


def test_flags_say_numpy_has_no_sparse_or_ragged_tensors():
    assert core.SUPPORTS_SPARSE_TENSORS is False
    assert core.SUPPORTS_RAGGED_TENSORS is False
    assert core.IS_THREAD_SAFE is True
    assert core.random_seed_dtype() == "uint32"


def test_cond_switch_and_loops_run_eagerly():
    assert core.cond(True, lambda: 1, lambda: 2) == 1
    assert core.cond(np.array(False), lambda: 1, lambda: 2) == 2
    branches = [lambda x: x + 1, lambda x: x * 10]
    assert core.switch(1, branches, 3) == 30
    assert core.switch(7, branches, 3) == 30  # clipped to the last branch
    out = core.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (0, 0))
    assert [int(v) for v in out] == [5, 10]
    assert int(core.while_loop(lambda i: i < 100, lambda i: i + 1, 0, maximum_iterations=7)) == 7
    assert core.fori_loop(0, 4, lambda i, acc: acc + i, 0) == 6


def test_scan_matches_a_cumulative_sum():
    xs = floats(5, 3)
    carry, ys = core.scan(lambda c, x: (c + x, c * 2), np.zeros(3, "float32"), xs)
    np.testing.assert_allclose(carry, xs.sum(0), rtol=1e-6)
    expected = np.concatenate([np.zeros((1, 3)), np.cumsum(xs, 0)[:-1]]) * 2
    np.testing.assert_allclose(ys, expected, rtol=1e-6, atol=1e-6)
    carry, ys = core.scan(lambda c, x: (c + x, c), np.float32(0), xs[:, 0], reverse=True)
    np.testing.assert_allclose(ys, np.cumsum(xs[::-1, 0])[::-1] - xs[:, 0], atol=1e-6)


def test_map_and_vectorized_map_apply_per_row():
    xs = floats(4, 3)
    np.testing.assert_allclose(core.map(lambda r: r.sum(), xs), xs.sum(1), rtol=1e-6)
    np.testing.assert_allclose(core.vectorized_map(lambda r: r * 2, xs), xs * 2)
    pairs = core.vectorized_map(lambda rs: rs[0] - rs[1], [xs, xs])
    np.testing.assert_array_equal(pairs, np.zeros_like(xs))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_associative_scan_matches_cumsum(reverse, axis):
    x = floats(4, 5)
    out = core.associative_scan(lambda a, b: a + b, x, reverse=reverse, axis=axis)
    ref = np.flip(np.cumsum(np.flip(x, axis), axis), axis) if reverse else np.cumsum(x, axis)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)


def test_associative_scan_handles_nested_inputs_like_keras():
    ops = keras_ops()
    x = (floats(6), floats(6))
    fn = lambda a, b: (a[0] * b[0], a[1] + b[1])  # noqa: E731
    mine = core.associative_scan(fn, x)
    ref = ops.associative_scan(fn, x)
    for a, b in zip(mine, ref, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_scatter_sums_duplicate_indices():
    indices = np.array([[0, 1], [2, 0], [0, 1]])
    values = np.array([1.0, 2.0, 3.0], "float32")
    out = core.scatter(indices, values, (3, 2))
    ref = np.zeros((3, 2), "float32")
    np.add.at(ref, (indices[:, 0], indices[:, 1]), values)
    np.testing.assert_array_equal(out, ref)
    assert out.dtype == np.float32
    rows = core.scatter(np.array([[1]]), np.ones((1, 4), "float32"), (3, 4))
    ref = np.zeros((3, 4), "float32")
    ref[1] = 1.0
    np.testing.assert_array_equal(rows, ref)


@pytest.mark.parametrize("reduction", [None, "add", "max", "min", "mul"])
def test_scatter_update_does_not_change_its_input(reduction):
    x = floats(4, 3)
    before = x.copy()
    indices = np.array([[0, 1], [3, 2]])
    updates = np.array([5.0, -5.0], "float32")
    out = core.scatter_update(x, indices, updates, reduction=reduction)
    np.testing.assert_array_equal(x, before)
    ref = before.copy()
    fn = {None: None, "add": np.add, "max": np.maximum, "min": np.minimum, "mul": np.multiply}
    if reduction is None:
        ref[0, 1], ref[3, 2] = 5.0, -5.0
    else:
        fn[reduction].at(ref, (indices[:, 0], indices[:, 1]), updates)
    np.testing.assert_array_equal(out, ref)


def test_scatter_update_rejects_unknown_reduction():
    with pytest.raises(ValueError, match="Unsupported scatter_update reduction 'avg'"):
        core.scatter_update(floats(2), np.array([[0]]), np.ones(1, "float32"), reduction="avg")


def test_slice_and_slice_update():
    x = floats(4, 5)
    np.testing.assert_array_equal(core.slice(x, (1, 2), (2, 3)), x[1:3, 2:5])
    np.testing.assert_array_equal(core.slice(x, np.array([3, 0]), (1, 5)), x[3:4])
    out = core.slice_update(x, (2, 1), np.zeros((2, 2), "float32"))
    ref = x.copy()
    ref[2:4, 1:3] = 0
    np.testing.assert_array_equal(out, ref)
    with pytest.raises(ValueError, match="one start index and one size per axis"):
        core.slice(x, (1,), (2, 3))


def test_unstack_stop_gradient_custom_gradient_device_scope():
    x = ints(3, 2)
    parts = core.unstack(x, axis=1)
    assert len(parts) == 2
    np.testing.assert_array_equal(parts[1], x[:, 1])
    np.testing.assert_array_equal(core.stop_gradient(x), x)

    @core.custom_gradient
    def square(v):
        return v * v, lambda dy: 2 * v * dy

    np.testing.assert_array_equal(square(x), x * x)
    with core.device_scope("cpu:0"):
        assert core.convert_to_tensor(1).dtype == np.int32
    assert core.remat(square) is square
