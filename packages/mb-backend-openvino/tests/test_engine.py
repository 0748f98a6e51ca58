"""How ops run: one compiled OpenVINO model per op signature, reused across sizes."""

import threading

import numpy as np
import openvino as ov
import openvino.opset16
import pytest

from mb_backend_openvino import _engine, core
from mb_backend_openvino import numpy as ovnp
from mb_backend_openvino._tensor import OpenVINOTensor, SymbolicValueError


def test_a_new_batch_size_reuses_the_compiled_model():
    a = np.ones((3, 5), "float32")
    ovnp.multiply(a, a)
    compiled = _engine.STATS["compiled"]
    for rows in (1, 7, 64):
        b = np.full((rows, 5), 2.0, "float32")
        np.testing.assert_array_equal(core.convert_to_numpy(ovnp.multiply(b, b)), b * b)
    assert _engine.STATS["compiled"] == compiled


def test_small_and_large_inputs_both_compute_the_same_op():
    for n in (10, _engine.LARGE_ELEMENTS + 10):
        x = np.arange(n, dtype="float32")
        np.testing.assert_array_equal(core.convert_to_numpy(ovnp.add(x, x)), 2 * x)
    bf16 = np.arange(_engine.LARGE_ELEMENTS + 4, dtype="float32").astype("bfloat16")
    out = core.convert_to_numpy(ovnp.multiply(bf16, bf16))
    assert out.dtype == bf16.dtype
    np.testing.assert_allclose(out.astype("float32"), (bf16.astype("float32") ** 2), rtol=1e-2)


def test_concurrent_calls_of_one_op_give_each_caller_its_result():
    results = {}

    def work(i):
        x = np.full((4, 4), float(i), "float32")
        results[i] = core.convert_to_numpy(ovnp.add(x, 1.0))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        np.testing.assert_array_equal(results[i], np.full((4, 4), i + 1.0))


def test_symbolic_inputs_build_nodes_instead_of_running():
    node = ov.op.Parameter(ov.Type.f32, ov.PartialShape([-1, 3])).output(0)
    traced = ovnp.exp(ovnp.add(OpenVINOTensor(output=node), 1.0))
    assert traced.is_symbolic
    assert traced.shape == (None, 3) and traced.dtype == "float32"
    with pytest.raises(SymbolicValueError, match="symbolic"):
        traced.numpy()


def test_openvino_failures_name_the_op_and_the_inputs():
    # OpenVINO's CPU plugin cannot convolve with weights of dynamic shape.
    def build(data, weights):
        return ov.opset16.convolution(data, weights, [1], [0], [0], [1])

    x, w = np.ones((1, 1, 5), "float32"), np.ones((1, 1, 3), "float32")
    with pytest.raises(
        RuntimeError, match=r"could not compile the op 'dynamic_weights' .*\(1, 1, 5\)"
    ):
        _engine.run("dynamic_weights", build, core.convert_to_tensor(x), core.convert_to_tensor(w))
