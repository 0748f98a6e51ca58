"""The OpenVINO fast paths (the private C++ call in `_compat`, the compiled-model cache)
are taken, not silently lost.

Each test fails with a message naming the fast path when an OpenVINO upgrade (or a
change in mb) makes the backend fall back to its slower path.
"""

import numpy as np
import openvino as ov

from mb_backend_openvino import _compat, _engine, core
from mb_backend_openvino import numpy as ovnp


def test_the_private_start_async_still_resolves():
    assert _compat.FAST_START, (
        f"OpenVINO {ov.__version__}: openvino._pyopenvino.InferRequest.start_async is gone "
        "or no longer under ov.InferRequest; every op now pays the Python wrapper. Update "
        "_compat._resolve_start_async."
    )
    assert _engine._start is _compat.start_async


def test_every_op_runs_through_the_fast_start(monkeypatch):
    calls = []
    real = _engine._start
    monkeypatch.setattr(_engine, "_start", lambda *a: calls.append(1) or real(*a))
    out = ovnp.add(core.convert_to_tensor(np.ones(3, np.float32)), 2.0)
    np.testing.assert_array_equal(core.convert_to_numpy(out), 3.0)
    assert calls, "ops no longer start their infer request through _compat.start_async"


def test_the_public_fallback_gives_the_same_numbers(monkeypatch):
    monkeypatch.setattr(_engine, "_start", _compat._public_start)
    x = core.convert_to_tensor(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(core.convert_to_numpy(ovnp.multiply(x, x)), [0, 1, 4, 9])


def test_a_repeated_op_reuses_its_compiled_model():
    x = core.convert_to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    ovnp.subtract(x, 1.0)
    compiled = _engine.STATS["compiled"]
    for _ in range(3):
        out = ovnp.subtract(x, 1.0)
    np.testing.assert_array_equal(core.convert_to_numpy(out), np.arange(6).reshape(2, 3) - 1)
    assert _engine.STATS["compiled"] == compiled, "the compiled-model cache missed"
