"""The TensorFlow fast paths (the private APIs in `_compat`, XLA compilation, the
``tf.function`` trace cache) are taken, not silently lost.

Each test fails with a message naming the fast path when a TensorFlow upgrade (or a
change in mb) makes the backend fall back to its slower path.
"""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import tensorflow as tf

from mb_backend_tensorflow import _compat, core, training


def test_the_private_eager_constructor_still_resolves():
    assert _compat.fast_numpy_to_eager(), (
        f"TensorFlow {tf.__version__}: tensorflow.python.eager.context or the EagerTensor "
        "constructor changed; convert_to_tensor now takes tf.convert_to_tensor (~2.5x the "
        "per-batch cost). Update _compat._probe_eager_constructor."
    )
    assert _compat.EAGER_TENSOR is type(tf.constant(0)), (
        f"TensorFlow {tf.__version__}: tensorflow.python.framework.ops.EagerTensor is no "
        "longer the class of eager tensors; convert_to_tensor no longer passes them through."
    )
    assert _compat.FAST_SMART_COND, "tf.__internal__.smart_cond is gone: cond never folds"


def test_the_device_scope_of_a_thread_is_still_readable_for_prefetching():
    name = _compat.current_device_name()
    assert name is not None, (
        f"TensorFlow {tf.__version__}: the eager context's device_name is gone; mb_data "
        "no longer makes batches on a background thread (core.placement returns None)."
    )
    with tf.device("/CPU:0"):
        assert _compat.current_device_name().endswith("CPU:0")
        enter = core.placement()
    seen = {}

    def elsewhere():  # another thread starts outside any scope ...
        seen["outside"] = _compat.current_device_name()
        with enter():  # ... and enters the caller's
            seen["inside"] = _compat.current_device_name()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen["outside"] == "" and seen["inside"].endswith("CPU:0")


_IMPORT_EVERY_MODULE = """
import os
os.environ["MB_BACKEND"] = "tensorflow"
from mb_ops.backends import CONTRACT_MODULES, backend_module
for name in CONTRACT_MODULES:
    backend_module(name)
import tensorflow as tf
from tensorflow.python.eager import context
ctx = context.context_safe()
assert ctx is None or not ctx._initialized, "the eager context was initialised at import"
# What a distribution needs: the runtime can still be configured.
(cpu,) = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
assert len(tf.config.list_logical_devices("CPU")) == 2
print("not started")
"""


def test_importing_the_backend_does_not_start_the_runtime():
    # A fresh process: this one's runtime was started by the tests before.
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"}
    run = subprocess.run(
        [sys.executable, "-c", _IMPORT_EVERY_MODULE],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0 and "not started" in run.stdout, (
        "importing the tensorflow backend started TensorFlow's runtime (logical devices "
        "and MultiWorkerMirroredStrategy can no longer be configured):\n" + run.stderr[-3000:]
    )


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bool"])
def test_convert_to_tensor_of_a_numpy_batch_builds_the_eager_tensor_directly(dtype, monkeypatch):
    def public_path(*args, **kwargs):
        raise AssertionError("convert_to_tensor fell back to tf.convert_to_tensor")

    monkeypatch.setattr(tf, "convert_to_tensor", public_path)
    host = (np.arange(12).reshape(3, 4) % 2).astype(dtype)
    x = core.convert_to_tensor(host)
    host[...] = 0  # a copy: a loader reusing its buffer leaves the tensor unchanged
    assert x.dtype.name == dtype
    np.testing.assert_array_equal(x.numpy(), (np.arange(12).reshape(3, 4) % 2).astype(dtype))


def test_a_constant_condition_runs_one_branch_without_a_graph_cond():
    ran = []
    out = core.cond(tf.constant(True), lambda: ran.append("t") or 1, lambda: ran.append("f") or 2)
    assert out == 1 and ran == ["t"]


def test_output_specs_trace_on_placeholders():
    from mb_ops import KerasTensor

    spec = core.compute_output_spec(lambda x: tf.reduce_sum(x, axis=1), KerasTensor((None, 3)))
    assert spec.shape == (None,) and spec.dtype == "float32"


def test_jit_compile_true_compiles_the_step_with_xla():
    def step(x):
        return tf.reduce_sum(x * 2.0)

    compiled = training.jit(step, jit_compile=True)
    x = tf.ones((4, 3))
    assert float(compiled(x)) == 24.0
    hlo = compiled.experimental_get_compiler_ir(x)(stage="hlo")
    assert "HloModule" in hlo, "jit(jit_compile=True) no longer compiles with XLA"

    # An op XLA cannot compile is refused by XLA under jit_compile=True (the flag really
    # reaches XLA): the step then runs as a plain graph, with a warning naming the op.
    def host_op(x):
        return tf.numpy_function(lambda a: a * 2, [x], tf.float32)

    assert float(tf.reduce_sum(training.jit(host_op)(x))) == 24.0
    with pytest.warns(UserWarning, match="XLA cannot compile PyFunc"):
        assert float(tf.reduce_sum(training.jit(host_op, jit_compile=True)(x))) == 24.0


def test_a_jitted_step_traces_once_per_input_signature():
    traces = []

    def step(state, x):
        traces.append(1)
        return state + tf.reduce_sum(x)

    jitted = training.jit(step)
    state = tf.zeros(())
    for _ in range(5):
        state = jitted(state, tf.ones((8, 3)))
    assert float(state) == 120.0
    assert len(traces) == 1, f"the step was traced {len(traces)} times for one signature"
