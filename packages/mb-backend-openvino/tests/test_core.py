"""The core contract module: conversion both ways, Variable, casts, slices, control flow."""

import ml_dtypes
import numpy as np
import pytest

import mb_ops
from mb_backend_openvino import core
from mb_backend_openvino import numpy as ovnp

RNG = np.random.default_rng(0)


def _floats(*shape, dtype="float32"):
    return RNG.standard_normal(shape).astype(dtype)


def test_python_values_follow_mb_dtype_rules():
    assert core.convert_to_tensor(3).dtype == "int32"
    assert core.convert_to_tensor(3.5).dtype == "float32"
    assert core.convert_to_tensor(True).dtype == "bool"
    assert core.convert_to_tensor([1, 2.5]).dtype == "float32"
    assert core.convert_to_tensor([[1, 2], [3, 4]]).dtype == "int32"
    assert core.convert_to_tensor([]).dtype == "float32"
    assert core.convert_to_tensor([1, 2], dtype="bfloat16").dtype == "bfloat16"


def test_numpy_round_trip_keeps_values_and_dtypes():
    for dtype in ("float32", "float64", "float16", "int8", "uint8", "int32", "int64", "bool"):
        data = (RNG.standard_normal((3, 4)) * 3).astype(dtype)
        back = core.convert_to_numpy(core.convert_to_tensor(data))
        assert back.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(back, data)
    bf16 = np.array([1.5, -2.25, 3e3], dtype=ml_dtypes.bfloat16)
    back = core.convert_to_numpy(core.convert_to_tensor(bf16))
    assert back.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(back.astype("float32"), bf16.astype("float32"))


def test_convert_to_numpy_returns_a_copy_the_tensor_does_not_share():
    tensor = core.convert_to_tensor(np.ones(3, "float32"))
    out = core.convert_to_numpy(tensor)
    out[0] = 7.0
    np.testing.assert_array_equal(core.convert_to_numpy(tensor), np.ones(3))


def test_non_contiguous_arrays_are_accepted():
    data = _floats(4, 6)[:, ::2]
    out = ovnp.add(data, 1.0)
    np.testing.assert_allclose(core.convert_to_numpy(out), data + 1.0, rtol=1e-6)


def test_complex_and_string_arrays_are_refused_with_a_clear_error():
    with pytest.raises(TypeError, match="cannot hold complex arrays"):
        core.convert_to_tensor(np.ones(2, "complex64"))
    with pytest.raises(TypeError, match="cannot hold string arrays"):
        core.convert_to_tensor(np.array(["a", "b"]))


def test_sparse_and_ragged_are_refused():
    with pytest.raises(ValueError, match="sparse=True is not supported on the openvino"):
        core.convert_to_tensor([1.0], sparse=True)
    with pytest.raises(ValueError, match="ragged=True is not supported"):
        core.convert_to_tensor([1.0], ragged=True)


def test_cast_truncates_toward_zero_and_bool_means_nonzero():
    x = np.array([1.7, -1.7, 2.5, 0.0, -0.5], "float32")
    np.testing.assert_array_equal(core.convert_to_numpy(core.cast(x, "int32")), [1, -1, 2, 0, 0])
    np.testing.assert_array_equal(
        core.convert_to_numpy(core.cast(x, "bool")), [True, True, True, False, True]
    )
    assert core.cast(x, "float16").dtype == "float16"
    assert core.shape(core.cast(x, "bfloat16")) == (5,)


def test_variable_owns_a_copy_and_assigns():
    source = np.ones(3, dtype="float32")
    v = core.Variable(source)
    assert isinstance(v, mb_ops.Variable)
    source[0] = 5.0
    np.testing.assert_array_equal(core.convert_to_numpy(v), np.ones(3))
    v.assign([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0, 3.0])
    v.assign_add(np.ones(3, "float32"))
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(core.convert_to_numpy(v * 2), [4.0, 6.0, 8.0])
    np.testing.assert_array_equal(core.convert_to_numpy(v[1:]), [3.0, 4.0])
    assert core.convert_to_tensor(v, dtype="int32").dtype == "int32"
    assert core.convert_to_tensor([v, v]).shape == (2, 3)
    with pytest.raises(ValueError, match="shape"):
        v.assign(np.ones(4, "float32"))


def test_variable_reads_the_scope_value_inside_a_stateless_scope():
    v = core.Variable(np.zeros(2, "float32"))
    with mb_ops.StatelessScope([(v, np.ones(2, "float32"))]) as scope:
        np.testing.assert_array_equal(core.convert_to_numpy(v), [1.0, 1.0])
        v.assign(np.full(2, 3.0, "float32"))
    np.testing.assert_array_equal(v.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(core.convert_to_numpy(scope.get_current_value(v)), [3.0, 3.0])


def test_bfloat16_variable_keeps_its_dtype():
    v = core.Variable(np.array([1.0, 2.0], "float32"), dtype="bfloat16")
    assert v.dtype == "bfloat16"
    assert v.value.dtype == "bfloat16"
    np.testing.assert_array_equal(v.numpy().astype("float32"), [1.0, 2.0])


def test_slice_and_updates_match_numpy():
    x = _floats(4, 5)
    np.testing.assert_array_equal(core.convert_to_numpy(core.slice(x, (1, 2), (2, 3))), x[1:3, 2:5])
    # As jax.lax.dynamic_slice: a window past the end moves back inside.
    np.testing.assert_array_equal(core.convert_to_numpy(core.slice(x, (3, 4), (2, 2))), x[2:4, 3:5])
    updated = core.convert_to_numpy(core.slice_update(x, (1, 1), np.zeros((2, 2), "float32")))
    expected = x.copy()
    expected[1:3, 1:3] = 0
    np.testing.assert_array_equal(updated, expected)
    indices = np.array([[0, 1], [2, 3], [0, 1]], "int32")
    values = np.array([1.0, 2.0, 3.0], "float32")
    scattered = core.convert_to_numpy(core.scatter(indices, values, (3, 4)))
    assert scattered[0, 1] == 4.0 and scattered[2, 3] == 2.0 and scattered.sum() == 6.0


def test_unstack_and_loops_run_eagerly():
    x = _floats(3, 2)
    parts = core.unstack(x)
    assert len(parts) == 3
    np.testing.assert_array_equal(core.convert_to_numpy(parts[2]), x[2])
    out = core.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (0, 0))
    assert [int(v) for v in out] == [5, 10]
    carry, ys = core.scan(lambda c, v: (c + v, c), np.zeros(2, "float32"), x)
    np.testing.assert_allclose(core.convert_to_numpy(carry), x.sum(0), rtol=1e-6)
    np.testing.assert_allclose(core.convert_to_numpy(ys)[1], x[0], rtol=1e-6)


def test_flags_and_seed_dtype():
    assert core.SUPPORTS_SPARSE_TENSORS is False
    assert core.SUPPORTS_RAGGED_TENSORS is False
    assert core.SUPPORTS_COMPLEX_DTYPES is False
    assert core.random_seed_dtype() == "int32"


def test_broadcast_to_its_own_shape_and_a_scalar_to_rank_zero():
    # A scalar weight broadcast to a scalar loss (the loss tracker's update) used to
    # crash OpenVINO's compiler; it is a no-op, as in NumPy.
    scalar = ovnp.broadcast_to(np.float32(3.0), ())
    assert tuple(scalar.shape) == () and float(core.convert_to_numpy(scalar)) == 3.0
    np.testing.assert_array_equal(
        core.convert_to_numpy(ovnp.broadcast_to(np.float32(3.0), (2, 3))), np.full((2, 3), 3.0)
    )
    with pytest.raises(ValueError, match="lower-rank shape"):
        ovnp.broadcast_to(np.ones((2,), "float32"), ())
