"""Other engines' tensors come in through DLPack, sharing memory where possible."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mb_backend_jax import core, distribution, export


def test_torch_tensor_is_imported_without_a_copy():
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = core.convert_to_tensor(t)
    assert isinstance(x, jax.Array)
    assert x.unsafe_buffer_pointer() == t.data_ptr()
    np.testing.assert_array_equal(np.asarray(x), t.numpy())


def test_torch_tensor_that_requires_grad_is_detached():
    torch = pytest.importorskip("torch")
    t = torch.ones(3, requires_grad=True)
    np.testing.assert_array_equal(np.asarray(core.convert_to_tensor(t)), np.ones(3))


def test_torch_bfloat16_and_cast_on_import():
    torch = pytest.importorskip("torch")
    x = core.convert_to_tensor(torch.ones(2, dtype=torch.bfloat16))
    assert str(x.dtype) == "bfloat16"
    assert str(core.convert_to_tensor(torch.ones(2), dtype="float16").dtype) == "float16"


def test_non_contiguous_torch_tensor_keeps_its_values():
    torch = pytest.importorskip("torch")
    t = torch.arange(6.0).reshape(2, 3).T
    np.testing.assert_array_equal(np.asarray(core.convert_to_tensor(t)), t.numpy())


def test_tensorflow_tensor_is_imported():
    tf = pytest.importorskip("tensorflow")
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(core.convert_to_tensor(t)), t.numpy())


def test_devices_are_reported():
    devices = distribution.list_devices()
    assert devices and all(":" in d for d in devices)
    assert "cpu:0" in distribution.list_devices("cpu")


@pytest.mark.gpu
def test_torch_cuda_tensor_lands_on_the_gpu_without_a_copy():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    t = torch.arange(4.0, device="cuda")
    x = core.convert_to_tensor(t)
    assert next(iter(x.devices())).platform == "gpu"
    assert x.unsafe_buffer_pointer() == t.data_ptr()


def test_device_count_processes_and_placement():
    assert distribution.get_device_count("cpu") == len(jax.devices("cpu"))
    assert distribution.num_processes() == 1 and distribution.process_id() == 0
    placed = distribution.distribute_tensor(np.arange(3.0), "cpu:0")
    assert next(iter(placed.devices())).platform == "cpu"
    sharding = jax.sharding.SingleDeviceSharding(jax.devices("cpu")[0])
    inside = jax.jit(lambda x: distribution.distribute_tensor(x * 2, sharding))(jnp.ones(2))
    np.testing.assert_array_equal(np.asarray(inside), [2.0, 2.0])
    with pytest.raises(ValueError, match="Sharding"):
        distribution.distribute_tensor(np.ones(2), 3)


def test_export_converts_a_pure_function_to_a_tf_function_and_refuses_torch_programs():
    from types import SimpleNamespace as Spec

    pytest.importorskip("tensorflow", reason="exporting through jax2tf needs TensorFlow")

    weight = np.arange(6, dtype="float32").reshape(3, 2)
    tf_vars = export.to_tf_variables([Spec(value=weight, trainable=True, path="dense/kernel")])
    serve = export.to_tf_function(
        lambda values, x: x @ values[0], tf_vars, [Spec(name="x", shape=(None, 3), dtype="float32")]
    )
    x = np.ones((5, 3), "float32")
    np.testing.assert_allclose(serve(x).numpy(), x @ weight, rtol=1e-6)
    with pytest.raises(
        NotImplementedError, match="to_exported_program is not supported on the jax"
    ):
        export.to_exported_program(None, [], [])
    assert "to_onnx" in export.UNSUPPORTED


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "uint8", "bool"])
@pytest.mark.parametrize("fast", [True, False], ids=["fast_transfer", "jnp_asarray"])
def test_numpy_array_becomes_an_independent_device_array(dtype, fast, monkeypatch):
    """Host arrays take a fast C++ transfer (or jnp.asarray where it is unavailable);
    either way the result is a copy: writing to the NumPy array afterwards, as a data
    loader reusing its buffers does, leaves the tensor unchanged."""
    from mb_backend_jax import _convert

    if not fast:
        monkeypatch.setattr(_convert, "_FAST_PUT", [None])
    host = (
        np.arange(12).reshape(3, 4).astype(np.dtype(dtype) if dtype != "bfloat16" else jnp.bfloat16)
    )
    expected = host.copy()
    x = core.convert_to_tensor(host[:, ::2])
    host[...] = 0
    assert isinstance(x, jax.Array) and str(x.dtype) == dtype and x.shape == (3, 2)
    np.testing.assert_array_equal(np.asarray(x), expected[:, ::2])
    assert not x.committed, "a converted batch must not pin itself to a device"
    # A result that feeds jit with another device array works, as jnp.asarray's does.
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a, b: a == b)(x, x)), True)


def test_float64_numpy_is_narrowed_without_x64():
    x = core.convert_to_tensor(np.ones((2, 2)))
    assert str(x.dtype) == ("float64" if jax.config.jax_enable_x64 else "float32")


def test_64_bit_torch_tensors_narrow_like_numpy_arrays_without_x64():
    torch = pytest.importorskip("torch")
    if jax.config.jax_enable_x64:
        pytest.skip("x64 is on: 64-bit tensors keep their width")
    labels = torch.arange(-3, 5, dtype=torch.int64)
    values = torch.linspace(-1.0, 1.0, 7, dtype=torch.float64, requires_grad=True)
    got_labels, got_values = core.convert_to_tensor(labels), core.convert_to_tensor(values)
    assert str(got_labels.dtype) == "int32" and str(got_values.dtype) == "float32"
    np.testing.assert_array_equal(np.asarray(got_labels), np.arange(-3, 5))
    np.testing.assert_array_equal(
        np.asarray(got_values), values.detach().numpy().astype(np.float32)
    )
    labels[0] = 100  # the result is a copy: the source tensor can change afterwards
    assert int(got_labels[0]) == -3
