"""Core primitives: conversion (zero-copy where possible), Variable, control flow, scatter."""

import ml_dtypes
import numpy as np
import pytest
import torch

import mb_ops
from mb_backend_torch import core


def test_numpy_input_shares_memory():
    a = np.arange(6, dtype="float32").reshape(2, 3)
    x = core.convert_to_tensor(a)
    a[0, 0] = 42.0
    assert x[0, 0].item() == 42.0


def test_readonly_and_reversed_numpy_inputs_are_copied_without_warning():
    a = np.arange(4.0, dtype="float32")
    a.setflags(write=False)
    np.testing.assert_array_equal(core.convert_to_numpy(core.convert_to_tensor(a)), a)
    rev = np.arange(4.0, dtype="float32")[::-1]
    np.testing.assert_array_equal(core.convert_to_numpy(core.convert_to_tensor(rev)), rev)


def test_bfloat16_round_trip_through_numpy():
    a = np.array([1.5, -2.25], dtype=ml_dtypes.bfloat16)
    x = core.convert_to_tensor(a)
    assert x.dtype == torch.bfloat16
    back = core.convert_to_numpy(x)
    assert back.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(back.astype("float32"), a.astype("float32"))


def test_python_values_follow_keras_dtypes():
    assert core.convert_to_tensor(3).dtype == torch.int32
    assert core.convert_to_tensor(2**40).dtype == torch.int64
    assert core.convert_to_tensor(1.5).dtype == torch.float32
    assert core.convert_to_tensor(True).dtype == torch.bool
    assert core.convert_to_tensor([1, 2]).dtype == torch.int32
    assert core.convert_to_tensor([1.0, 2]).dtype == torch.float32
    assert core.convert_to_tensor([1, 2], dtype="float16").dtype == torch.float16
    assert core.convert_to_tensor(np.array([1, 2], "uint32")).dtype == torch.int64


def test_sparse_and_ragged_are_refused():
    with pytest.raises(ValueError, match="sparse"):
        core.convert_to_tensor([1.0], sparse=True)
    with pytest.raises(ValueError, match="ragged"):
        core.convert_to_tensor([1.0], ragged=True)


def test_cast_skips_same_dtype_and_converts_other():
    x = core.convert_to_tensor([1.5, 2.5])
    assert core.cast(x, "float32") is x
    assert core.cast(x, "int32").dtype == torch.int32
    assert core.cast([1, 2], "float64").dtype == torch.float64
    assert core.shape(x) == (2,)


def test_variable_is_a_parameter_with_requires_grad_from_trainable():
    v = core.Variable(np.ones((2, 2), "float32"), name="w")
    assert isinstance(v.value, torch.nn.Parameter)
    assert v.value.requires_grad
    v.trainable = False
    assert not v.value.requires_grad
    counter = core.Variable(0, dtype="int32", trainable=True)
    assert not counter.value.requires_grad  # ints cannot require a gradient


def test_variable_owns_its_memory_and_assigns_in_place():
    a = np.zeros(3, "float32")
    v = core.Variable(a)
    a[0] = 5.0
    assert v.numpy()[0] == 0.0
    param = v.value
    v.assign([1.0, 2.0, 3.0])
    assert v.value is param
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0, 3.0])
    v.assign_add(np.ones(3, "float32"))
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0, 4.0])


def test_variable_reads_honour_stateless_scope():
    v = core.Variable(np.ones(2, "float32"))
    with mb_ops.StatelessScope([(v, np.full(2, 7.0, "float32"))]) as scope:
        np.testing.assert_array_equal(core.convert_to_numpy(v.value), [7.0, 7.0])
        v.assign(np.zeros(2, "float32"))
    np.testing.assert_array_equal(v.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(core.convert_to_numpy(scope.get_current_value(v)), [0, 0])


def test_torch_functions_accept_a_variable():
    v = core.Variable(np.full(3, 2.0, "float32"))
    np.testing.assert_array_equal(torch.mul(v, 3).detach().numpy(), [6.0, 6.0, 6.0])
    np.testing.assert_array_equal(np.asarray(v), [2.0, 2.0, 2.0])


def test_cond_switch_while_fori():
    assert core.cond(True, lambda: 1, lambda: 2) == 1
    assert core.switch(5, [lambda x: x + 1, lambda x: x * 10], 3) == 30
    i, total = core.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
    assert int(i) == 4 and int(total) == 6
    assert int(core.while_loop(lambda i: i < 100, lambda i: i + 1, 0, maximum_iterations=7)) == 7
    assert core.fori_loop(0, 5, lambda i, v: v + i, 0) == 10


def test_scan_matches_cumulative_sum_and_reverse():
    xs = np.arange(5, dtype="float32")
    carry, ys = core.scan(lambda c, x: (c + x, c * 2), np.float32(0.0), xs)
    running = np.concatenate([[0.0], np.cumsum(xs)[:-1]])
    np.testing.assert_allclose(core.convert_to_numpy(ys), running * 2)
    assert float(carry) == xs.sum()
    _, ys_rev = core.scan(lambda c, x: (c + x, c), np.float32(0.0), xs, reverse=True)
    np.testing.assert_allclose(
        core.convert_to_numpy(ys_rev), np.concatenate([np.cumsum(xs[::-1])[::-1][1:], [0.0]])
    )


def test_map_and_vectorized_map():
    xs = core.convert_to_tensor(np.arange(6, dtype="float32").reshape(3, 2))
    np.testing.assert_allclose(core.convert_to_numpy(core.map(lambda r: r.sum(), xs)), [1, 5, 9])
    np.testing.assert_allclose(
        core.convert_to_numpy(core.vectorized_map(lambda r: r * 2, xs)),
        np.arange(6).reshape(3, 2) * 2,
    )


@pytest.mark.parametrize("n", [1, 2, 7, 8])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_matches_cumsum(n, reverse):
    x = np.arange(1, n + 1, dtype="float32")
    out = core.associative_scan(lambda a, b: a + b, core.convert_to_tensor(x), reverse=reverse)
    expected = np.cumsum(x[::-1])[::-1] if reverse else np.cumsum(x)
    np.testing.assert_allclose(core.convert_to_numpy(out), expected)


def test_scatter_sums_duplicates():
    out = core.scatter([[0, 1], [2, 0], [0, 1]], [1.0, 2.0, 3.0], (3, 2))
    expected = np.zeros((3, 2), "float32")
    np.add.at(expected, ([0, 2, 0], [1, 0, 1]), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(core.convert_to_numpy(out), expected)


@pytest.mark.parametrize(
    ("reduction", "ufunc"),
    [(None, None), ("add", np.add), ("max", np.maximum), ("min", np.minimum), ("mul", np.multiply)],
)
def test_scatter_update_reductions(reduction, ufunc):
    base = np.arange(6, dtype="float32").reshape(3, 2)
    idx = np.array([[0], [2], [0]])
    upd = np.array([[10.0, -1.0], [3.0, 3.0], [-5.0, 20.0]], "float32")
    out = core.convert_to_numpy(core.scatter_update(base, idx, upd, reduction=reduction))
    expected = base.copy()
    if ufunc is None:
        expected[[0, 2]] = upd[[2, 1]]  # last write wins for duplicates
    else:
        ufunc.at(expected, idx[:, 0], upd)
    np.testing.assert_array_equal(out, expected)


def test_slice_and_slice_update_and_unstack():
    x = np.arange(24, dtype="float32").reshape(2, 3, 4)
    got = core.convert_to_numpy(core.slice(x, (1, 0, 2), (1, 2, 2)))
    np.testing.assert_array_equal(got, x[1:2, 0:2, 2:4])
    upd = np.full((1, 2, 2), -1.0, "float32")
    out = core.convert_to_numpy(core.slice_update(x, [1, 0, 2], upd))
    expected = x.copy()
    expected[1:2, 0:2, 2:4] = -1.0
    np.testing.assert_array_equal(out, expected)
    parts = core.unstack(core.convert_to_tensor(x), axis=1)
    assert len(parts) == 3 and tuple(parts[0].shape) == (2, 4)


def test_stop_gradient_blocks_gradient():
    x = torch.tensor(3.0, requires_grad=True)
    y = x * core.stop_gradient(x)
    y.backward()
    assert x.grad.item() == 3.0


def test_custom_gradient_uses_the_given_gradient():
    @core.custom_gradient
    def clipped_identity(x):
        def grad(upstream):
            return upstream * 0.5

        return x * 1.0, grad

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    clipped_identity(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.5, 0.5])


def test_remat_gives_same_gradients():
    def f(x):
        return torch.sin(x) * x

    x1 = torch.tensor([0.3, 1.2], requires_grad=True)
    x2 = x1.detach().clone().requires_grad_(True)
    f(x1).sum().backward()
    core.remat(f)(x2).sum().backward()
    np.testing.assert_allclose(x1.grad.numpy(), x2.grad.numpy(), rtol=1e-6)


def test_compute_output_spec_marks_unknown_dims():
    spec = core.compute_output_spec(
        lambda a, b: torch.matmul(a, b), mb_ops.KerasTensor((None, 3)), mb_ops.KerasTensor((3, 5))
    )
    assert spec.shape == (None, 5) and spec.dtype == "float32"


def test_device_scope_places_new_tensors():
    with core.device_scope("cpu:0") as device:
        assert device.type == "cpu"
        assert core.convert_to_tensor([1.0]).device.type == "cpu"
    with pytest.raises(ValueError, match="device name"), core.device_scope(3):
        pass


def test_flags_and_seed_dtype():
    assert core.SUPPORTS_SPARSE_TENSORS is False
    assert core.SUPPORTS_RAGGED_TENSORS is False
    assert core.IS_THREAD_SAFE is True
    assert core.random_seed_dtype() == "int64"


@pytest.mark.gpu
def test_cuda_tensor_converts_to_numpy():
    x = torch.ones(3, device="cuda")
    np.testing.assert_array_equal(core.convert_to_numpy(x), np.ones(3))


def test_convert_to_numpy_of_views_grads_and_lazy_negation():
    z = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex64)
    np.testing.assert_array_equal(core.convert_to_numpy(z.conj()), [1 - 2j, 3 + 1j])
    negated = z.conj().imag  # a lazily negated view
    assert negated.is_neg()
    np.testing.assert_array_equal(core.convert_to_numpy(negated), [-2.0, 1.0])
    w = torch.ones(2, requires_grad=True)
    np.testing.assert_array_equal(core.convert_to_numpy(w * 2), [2.0, 2.0])
    base = torch.arange(6.0).reshape(2, 3)
    view = core.convert_to_numpy(base[:, 1])  # a strided view, shared memory
    np.testing.assert_array_equal(view, [1.0, 4.0])
