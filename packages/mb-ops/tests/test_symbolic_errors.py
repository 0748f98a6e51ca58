import subprocess
import sys

import pytest

import mb_ops
from mb_ops import KerasTensor
from mb_ops import numpy as mnp


def test_matmul_rejects_mismatched_inner_axes_naming_op_and_shapes():
    with pytest.raises(ValueError, match=r"matmul.*\(2, 3\).*\(4, 5\)"):
        mnp.matmul(KerasTensor((2, 3)), KerasTensor((4, 5)))


def test_matmul_rejects_scalars():
    with pytest.raises(ValueError, match=r"matmul: inputs must have rank >= 1"):
        mnp.matmul(KerasTensor(()), KerasTensor((3,)))


def test_axis_out_of_range_names_op_axis_and_shape():
    with pytest.raises(ValueError, match=r"sum: axis=2 .*shape \(2, 3\).*\[-2, 1\]"):
        mnp.sum(KerasTensor((2, 3)), axis=2)


def test_incompatible_broadcast_names_op_and_shapes():
    with pytest.raises(ValueError, match=r"add: the input shapes \(2, 3\), \(4, 3\)"):
        mnp.add(KerasTensor((2, 3)), KerasTensor((4, 3)))


def test_reshape_with_wrong_element_count():
    with pytest.raises(ValueError, match=r"reshape: cannot reshape .*\(2, 3\)"):
        mnp.reshape(KerasTensor((2, 3)), (4, 2))


def test_concatenate_rejects_mismatched_other_axes():
    with pytest.raises(ValueError, match="concatenate"):
        mnp.concatenate([KerasTensor((2, 3)), KerasTensor((2, 4))], axis=0)


def test_unknown_dims_propagate():
    x = KerasTensor((None, 3))
    assert mnp.add(x, KerasTensor((4, 1, 3))).shape == (4, None, 3)
    assert mnp.matmul(KerasTensor((None, None, 5)), KerasTensor((5, 7))).shape == (None, None, 7)
    assert mnp.reshape(x, (-1,)).shape == (None,)
    assert mnp.reshape(KerasTensor((2, 6)), (-1, 3)).shape == (4, 3)
    assert mnp.concatenate([x, x], axis=0).shape == (None, 3)
    assert mnp.concatenate([x, x], axis=1).shape == (None, 6)
    assert mnp.mean(x, axis=0, keepdims=True).shape == (1, 3)


def test_python_operators_on_keras_tensors_build_ops():
    x = KerasTensor((None, 3), dtype="float16")
    y = x + 1
    assert (y.shape, y.dtype) == ((None, 3), "float16")
    assert y._keras_history.operation.name.startswith("add")
    assert (x @ KerasTensor((3, 2), dtype="float16")).shape == (None, 2)
    assert (x > 0).dtype == "bool"
    assert (-x).shape == (None, 3)
    assert x[:, 0].shape == (None,)
    assert (2 * x).dtype == "float16"


def test_dtype_promotion_in_specs():
    i = KerasTensor((2,), dtype="int32")
    f = KerasTensor((2,), dtype="float16")
    assert mnp.add(i, f).dtype == "float16"  # JAX lattice: int32 + float16
    assert mnp.add(i, 1.5).dtype == mb_ops.config.floatx()
    assert mnp.divide(i, i).dtype == "float32"
    assert mnp.sin(KerasTensor((2,), dtype="bfloat16")).dtype == "bfloat16"
    assert mnp.sum(KerasTensor((2,), dtype="bool")).dtype == "int32"


def test_symbolic_calls_do_not_load_an_engine(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("an engine was touched during shape inference")

    monkeypatch.setattr(mb_ops.backends, "backend_module", refuse)
    monkeypatch.setattr("mb_ops._backends.backend_module", refuse)
    x = KerasTensor((None, 4))
    assert mnp.tanh(mnp.matmul(x, KerasTensor((4, 2)))).shape == (None, 2)


def test_importing_mb_ops_and_tracing_loads_no_engine_or_backend():
    code = (
        "import sys, mb_ops\n"
        "from mb_ops import KerasTensor, ops\n"
        "y = ops.softmax(ops.matmul(KerasTensor((None, 4)), KerasTensor((4, 2))) + 1)\n"
        "loaded = [m for m in ('jax', 'torch', 'tensorflow', 'openvino') if m in sys.modules]\n"
        "loaded += [m for m in sys.modules if m.startswith('mb_backend_')]\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
