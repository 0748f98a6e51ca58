"""Devices, and the inference-only refusals: no gradients, no compilation for training."""

import numpy as np
import pytest

from mb_backend_openvino import core, distribution, export, linalg, training
from mb_ops import backends


def test_registered_as_inference_only():
    descriptor = backends.available_backends()["openvino"]
    assert descriptor.module == "mb_backend_openvino"
    assert descriptor.trainable is False


def test_the_cpu_is_the_device():
    assert distribution.list_devices() == ["cpu:0"]
    assert distribution.list_devices("CPU") == ["cpu:0"]
    assert distribution.list_devices("gpu") == []
    assert distribution.get_device_count() == 1


def test_device_scope_accepts_the_cpu_and_refuses_others():
    with core.device_scope("cpu:0"):
        assert core.convert_to_numpy(core.convert_to_tensor([1.0])).tolist() == [1.0]
    with pytest.raises(ValueError, match="runs on the CPU only"), core.device_scope("gpu:0"):
        pass


@pytest.mark.parametrize("name", ["value_and_grad", "jit", "multi_step", "fused_update"])
def test_training_primitives_are_declared_and_raise(name):
    assert name in training.UNSUPPORTED
    args = (lambda x: x, 2) if name == "multi_step" else (lambda x: x,)
    with pytest.raises(
        NotImplementedError, match=f"{name} is not supported on the openvino backend"
    ):
        getattr(training, name)(*args)


def test_jvp_and_export_are_declared_and_raise():
    with pytest.raises(NotImplementedError, match="jvp is not supported on the openvino"):
        linalg.jvp(lambda x: x, (np.ones(2),), (np.ones(2),))
    with pytest.raises(NotImplementedError, match="to_onnx is not supported on the openvino"):
        export.to_onnx(None)


def test_custom_gradient_runs_the_forward_pass_only():
    @core.custom_gradient
    def double(x):
        return x * 2, lambda g: g

    np.testing.assert_array_equal(core.convert_to_numpy(double(np.ones(2, "float32"))), [2, 2])
