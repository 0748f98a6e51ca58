"""Eager per-op overhead of the openvino backend against raw OpenVINO calls.

For ``add``, ``matmul`` and ``relu`` on (8, 8) float32 tensors, prints microseconds
per call for ``mb.ops`` (op layer + backend), the backend function called directly,
and two raw OpenVINO baselines on a model compiled once beforehand: the
``CompiledModel.__call__`` convenience path, and the lowest-level path this backend
uses (bind inputs, ``infer()``, copy the output). A measurement, not a test:

    MB_BACKEND=openvino .venv/bin/python packages/mb-backend-openvino/tools/overhead.py
"""

import os
import timeit

os.environ.setdefault("MB_BACKEND", "openvino")

import numpy as np
import openvino as ov
import openvino.opset16 as opset

import mb_ops
from mb_backend_openvino import _engine

SHAPE = (8, 8)
NUMBER = 2000


def _raw(build, arrays):
    params = [ov.op.Parameter(ov.Type.f32, ov.PartialShape(list(a.shape))) for a in arrays]
    model = ov.Model([build(*params)], params)
    compiled = _engine.CORE.compile_model(model, _engine.DEVICE, _engine.CONFIG_SMALL)
    request = compiled.create_infer_request()

    def low_level():
        for i, a in enumerate(arrays):
            request.set_input_tensor(i, ov.Tensor(a, shared_memory=True))
        request.infer()
        return request.get_output_tensor(0).data.copy()

    def convenience():
        return compiled(list(arrays))[0]

    return low_level, convenience


def _best(fn):
    fn()
    return min(timeit.repeat(fn, number=NUMBER, repeat=5)) / NUMBER * 1e6


def main():
    core = mb_ops.backends.backend_module("core")
    bnp = mb_ops.backends.backend_module("numpy")
    bnn = mb_ops.backends.backend_module("nn")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(SHAPE).astype("float32")
    b = rng.standard_normal(SHAPE).astype("float32")
    x, y = core.convert_to_tensor(a), core.convert_to_tensor(b)
    rows = {
        "add": (
            lambda: mb_ops.ops.add(x, y),
            lambda: bnp.add(x, y),
            _raw(lambda p, q: opset.add(p, q), (a, b)),
        ),
        "matmul": (
            lambda: mb_ops.ops.matmul(x, y),
            lambda: bnp.matmul(x, y),
            _raw(lambda p, q: opset.matmul(p, q, False, False), (a, b)),
        ),
        "relu": (
            lambda: mb_ops.ops.relu(x),
            lambda: bnn.relu(x),
            _raw(lambda p: opset.relu(p), (a,)),
        ),
    }
    print(f"{'op':<7} {'mb (us)':>8} {'backend':>8} {'raw (us)':>9} {'raw call':>9} {'mb/raw':>7}")
    for name, (ours, backend, (low, call)) in rows.items():
        t_ours, t_backend, t_low, t_call = (_best(f) for f in (ours, backend, low, call))
        print(
            f"{name:<7} {t_ours:8.1f} {t_backend:8.1f} {t_low:9.1f} {t_call:9.1f} "
            f"{t_ours / t_low:7.2f}"
        )


if __name__ == "__main__":
    main()
