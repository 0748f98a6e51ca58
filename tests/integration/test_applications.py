"""``mb.applications`` on the leg's engine and image data format.

Keras 3.15 (a test-only dependency, on its numpy backend, channels last) writes the
weights of a few randomly initialised models, in the Keras 3 ``.weights.h5`` and the
Keras 2 ``.h5`` layouts (``packages/mb-applications/tests/apps_side.py``); mb builds
each model with ``weights=PATH`` on this leg's backend, in this leg's image data
format (the torch leg runs channels first), and must predict Keras's numbers. The
models also train: one ``fit`` step changes their weights and gives a finite loss.
Every architecture's layers, variables and wiring are compared with Keras in
mb-applications' own tests.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest

import mb as keras

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)

_HELPERS = Path(__file__).parents[2] / "packages" / "mb-applications" / "tests" / "helpers.py"
_spec = importlib.util.spec_from_file_location("apps_integration_helpers", _HELPERS)
helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(helpers)

# [name, function, kwargs, Keras 2 .h5 too]: squeeze-excite, hard-swish and ops on
# tensors; Normalization and Rescaling inside the model; grouped convolutions,
# LayerNormalization and a nested Sequential (Permute around the MLP when channels first).
CASES = [
    [
        "mobilenet_v3_small",
        "MobileNetV3Small",
        {"classes": 10, "classifier_activation": None},
        True,
    ],
    ["efficientnet_b0", "EfficientNetB0", {"include_top": False}, False],
    ["convnext_tiny", "ConvNeXtTiny", {"classes": 10, "classifier_activation": None}, True],
]


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root  # shared by workers


def _channels_first():
    return keras.config.image_data_format() == "channels_first"


def _shape(side):
    return (3, side, side) if _channels_first() else (side, side, 3)


@pytest.mark.heavy
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_keras_weights_predict_as_keras_on_this_backend(case, session_dir):
    folder = helpers.keras_weights(session_dir, CASES, label="integration")
    name, function, kwargs, legacy = helpers.numerics_case(case)
    data = np.load(folder / f"{name}.npz")
    x, expected = data["x"], data["y"]
    if _channels_first():
        x = np.transpose(x, (0, 3, 1, 2))
    kwargs["input_shape"] = _shape(kwargs["input_shape"][0])
    for suffix in (".weights.h5", ".h5") if legacy else (".weights.h5",):
        build = getattr(keras.applications, function)
        model = build(**{**kwargs, "weights": str(folder / (name + suffix))})
        got = keras.ops.convert_to_numpy(model(x, training=False))
        if got.ndim == 4 and _channels_first():
            got = np.transpose(got, (0, 2, 3, 1))
        scale = float(np.abs(expected).max())
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=2e-4 * scale, err_msg=suffix)


@pytest.mark.trains
@pytest.mark.parametrize("function", ["MobileNetV3Small", "EfficientNetB0"])
def test_one_fit_step_trains(function):
    keras.utils.set_random_seed(0)
    model = getattr(keras.applications, function)(weights=None, input_shape=_shape(32), classes=3)
    before = [keras.ops.convert_to_numpy(w).copy() for w in model.trainable_weights]
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="sparse_categorical_crossentropy")
    x = np.random.default_rng(0).uniform(0, 255, (4, *_shape(32))).astype("float32")
    history = model.fit(x, np.array([0, 1, 2, 1]), batch_size=4, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    after = [keras.ops.convert_to_numpy(w) for w in model.trainable_weights]
    changed = sum(not np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert changed == len(before), f"{len(before) - changed} trainable variables did not move"
