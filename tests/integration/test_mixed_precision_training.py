"""Mixed precision as Keras 3 does it (issue 16, item 4): under ``mixed_float16``,
`compile` wraps the optimizer in a `LossScaleOptimizer` (unless
``auto_scale_loss=False``), and dynamic loss scaling makes a model whose float16
gradients underflow train like its float32 twin, on every backend that trains.

The gradients are made tiny by a loss multiplier (1e-7: d loss / d y_pred is about
1e-8, below float16's smallest subnormal, 6e-8) and the learning rate is large to
match. `run` is written once and also run on Keras 3 (a subprocess on the leg's
backend), whose weights must agree.
"""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np
import pytest

import mb as keras
from mb_ops import config, testing

pytestmark = pytest.mark.trains


def run(k, policy, auto_scale_loss=True):
    """Trains a small model under `policy`; returns what a user would look at."""
    k.mixed_precision.set_global_policy(policy)
    try:
        rng = np.random.default_rng(0)
        model = k.Sequential([k.Input((4,)), k.layers.Dense(3), k.layers.Dense(1)])
        model.set_weights(
            [rng.normal(size=w.shape).astype("float32") * 0.5 for w in model.get_weights()]
        )

        def tiny_mse(y_true, y_pred):
            error = k.ops.cast(y_true, "float32") - k.ops.cast(y_pred, "float32")
            return k.ops.mean(k.ops.square(error), axis=-1) * 1e-7

        model.compile(
            optimizer=k.optimizers.SGD(2e5), loss=tiny_mse, auto_scale_loss=auto_scale_loss
        )
        x = rng.normal(size=(32, 4)).astype("float32")
        y = (x.sum(1, keepdims=True) * 0.3).astype("float32")
        history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
        optimizer = model.optimizer
        scale = getattr(optimizer, "dynamic_scale", None)
        return {
            "optimizer": [type(optimizer).__name__, optimizer.name],
            "inner": type(getattr(optimizer, "inner_optimizer", optimizer)).__name__,
            "loss": history.history["loss"],
            "weights": [np.asarray(w, "float32").tolist() for w in model.get_weights()],
            "scale": None if scale is None else float(np.asarray(scale.numpy())),
        }
    finally:
        k.mixed_precision.set_global_policy("float32")


def report(k):
    return {
        "float32": run(k, "float32"),
        "mixed": run(k, "mixed_float16"),
        "unscaled": run(k, "mixed_float16", auto_scale_loss=False),
    }


_KERAS_MAIN = """
import json
import numpy as np
import keras
print(json.dumps(report(keras)))
"""


@pytest.fixture(scope="module")
def mb_report():
    return report(keras)


@pytest.fixture(scope="module")
def keras_report():
    if importlib.util.find_spec("keras") is None:
        pytest.skip("Keras 3 is a test-only dependency")
    backend = config.backend() if config.backend() in ("jax", "torch", "tensorflow") else "jax"
    source = inspect.getsource(run) + inspect.getsource(report) + _KERAS_MAIN
    return testing.keras_json(source, backend=backend)


def _max_difference(a, b):
    return max(
        float(np.max(np.abs(np.asarray(p) - np.asarray(q)))) for p, q in zip(a, b, strict=True)
    )


@pytest.mark.heavy
def test_compile_wraps_the_optimizer_under_mixed_float16_as_keras(mb_report, keras_report):
    for case in ("float32", "mixed", "unscaled"):
        assert mb_report[case]["optimizer"][0] == keras_report[case]["optimizer"][0]
        assert mb_report[case]["inner"] == keras_report[case]["inner"]
    assert mb_report["mixed"]["optimizer"] == ["LossScaleOptimizer", "loss_scale_optimizer"]
    assert mb_report["mixed"]["scale"] == keras_report["mixed"]["scale"]


def test_loss_scaling_trains_float16_like_float32(mb_report):
    scaled = _max_difference(mb_report["mixed"]["weights"], mb_report["float32"]["weights"])
    unscaled = _max_difference(mb_report["unscaled"]["weights"], mb_report["float32"]["weights"])
    # float16 rounding only, with scaling; without it the tiny gradients flush to zero.
    assert scaled < 1e-3, scaled
    assert unscaled > 10 * scaled, (unscaled, scaled)
    np.testing.assert_allclose(mb_report["mixed"]["loss"], mb_report["float32"]["loss"], rtol=1e-3)


@pytest.mark.heavy
def test_mixed_precision_weights_match_keras(mb_report, keras_report):
    for case in ("float32", "mixed"):
        for ours, theirs in zip(
            mb_report[case]["weights"], keras_report[case]["weights"], strict=True
        ):
            np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-4)
