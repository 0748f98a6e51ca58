"""compute_output_spec: shapes and dtypes from OpenVINO's shape inference, or by running."""

import numpy as np

import mb_ops
from mb_backend_openvino import _engine, core
from mb_backend_openvino import numpy as ovnp


def test_traced_shapes_keep_unknown_dims_and_run_nothing():
    calls = _engine.STATS["calls"]

    def fn(x, w):
        return ovnp.matmul(ovnp.concatenate([x, x], axis=1), w)

    spec = core.compute_output_spec(
        fn, mb_ops.KerasTensor((None, 3)), mb_ops.KerasTensor((6, 2), dtype="float16")
    )
    assert spec.shape == (None, 2) and spec.dtype == "float32"
    assert _engine.STATS["calls"] == calls


def test_variables_and_structures_trace_too():
    weights = core.Variable(np.ones((3, 4), "float32"))

    def fn(inputs):
        y = ovnp.matmul(inputs["x"], weights)
        return {"y": y, "n": ovnp.sum(y, axis=-1)}

    spec = core.compute_output_spec(fn, {"x": mb_ops.KerasTensor((None, 5, 3))})
    assert spec["y"].shape == (None, 5, 4)
    assert spec["n"].shape == (None, 5)


def test_python_branching_on_values_falls_back_to_running_on_placeholders():
    def fn(x):
        if float(ovnp.sum(x)) == 0.0:  # needs a value: zero placeholders take this branch
            return ovnp.zeros((2, 2))
        return x

    spec = core.compute_output_spec(fn, mb_ops.KerasTensor((None, 4)))
    assert spec.shape == (2, 2)


def test_dims_that_depend_on_the_batch_are_unknown_after_the_fallback():
    def fn(x):
        n = int(x.shape[0])  # a static dim is read: tracing with unknown dims cannot
        return ovnp.reshape(x, (n * 4,))

    spec = core.compute_output_spec(fn, mb_ops.KerasTensor((None, 4)))
    assert spec.shape == (None,)
