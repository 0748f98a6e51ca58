"""`import mb as keras`: mb's public namespaces carry Keras 3's names, name for name."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

import mb

# Namespaces whose inventory is complete in mb today; each must hold every public name
# Keras 3 exposes there. (mb.layers joins this list when every layer family has landed.)
COMPLETE = (
    "ops",
    "ops.numpy",
    "ops.nn",
    "ops.linalg",
    "ops.image",
    "random",
    "tree",
    "backend",
    "activations",
    "initializers",
    "regularizers",
    "constraints",
    "losses",
    "metrics",
    "optimizers",
    "optimizers.schedules",
    "callbacks",
    "mixed_precision",
)
# Namespaces mb covers in part: the Keras names each still lacks, written down so that
# a name that disappears fails here and one that lands must be struck off the list.
PARTIAL = {
    "layers": [
        "AugMix",
        "AutoContrast",
        "ContrastLimitedAdaptiveHistogramEqualization",
        "CutMix",
        "Equalization",
        "FlaxLayer",
        "JaxLayer",
        "MaxNumBoundingBoxes",
        "MelSpectrogram",
        "MixUp",
        "Pipeline",
        "RandAugment",
        "STFTSpectrogram",
        "Solarization",
        "TFSMLayer",
        "TorchModuleWrapper",
    ],
    "saving": ["KerasFileEditor"],
    "utils": [
        "Config",
        "FeatureSpace",
        "array_to_img",
        "audio_dataset_from_directory",
        "bounding_boxes",
        "get_file",
        "image_dataset_from_directory",
        "img_to_array",
        "legacy",
        "load_img",
        "model_to_dot",
        "plot_model",
        "save_img",
        "text_dataset_from_directory",
        "timeseries_dataset_from_array",
    ],
}
TOP_LEVEL = (
    "Function",
    "Input",
    "InputSpec",
    "KerasTensor",
    "Layer",
    "Loss",
    "Metric",
    "Model",
    "Operation",
    "Optimizer",
    "Initializer",
    "Regularizer",
    "DTypePolicy",
    "FloatDTypePolicy",
    "Sequential",
    "StatelessScope",
    "SymbolicScope",
    "Variable",
    "name_scope",
    "version",
)


@pytest.fixture(scope="module")
def keras_names() -> dict[str, list[str]]:
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    code = (
        "import importlib, json, keras\n"
        f"names = {{n: sorted(x for x in dir(importlib.import_module('keras.' + n)) "
        f"if not x.startswith('_')) for n in {(*COMPLETE, *PARTIAL)!r}}}\n"
        "names['.'] = sorted(x for x in dir(keras) if not x.startswith('_'))\n"
        "print(json.dumps(names))"
    )
    env = {**os.environ, "KERAS_BACKEND": "numpy", "TF_CPP_MIN_LOG_LEVEL": "3"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("namespace", COMPLETE)
def test_namespace_has_every_keras_name(namespace, keras_names):
    module = importlib.import_module(f"mb.{namespace}")
    missing = sorted(set(keras_names[namespace]) - set(dir(module)))
    assert missing == [], f"mb.{namespace} lacks {missing}"


@pytest.mark.parametrize("namespace", sorted(PARTIAL))
def test_partial_namespace_lacks_only_the_listed_names(namespace, keras_names):
    module = importlib.import_module(f"mb.{namespace}")
    missing = sorted(set(keras_names[namespace]) - set(dir(module)))
    assert missing == PARTIAL[namespace]


def test_a_keras_program_trains_and_saves_through_the_umbrella(tmp_path):
    import numpy as np

    import mb as keras

    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0], dtype="float32"))[:, None]
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] / 4
    path = str(tmp_path / "m.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    np.testing.assert_allclose(
        restored.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-6
    )


def test_top_level_names_exist(keras_names):
    expected = [name for name in TOP_LEVEL if name in keras_names["."]]
    assert len(expected) == len(TOP_LEVEL)
    assert [name for name in expected if not hasattr(mb, name)] == []


def test_ops_work_through_the_umbrella():
    x = mb.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y = mb.ops.convert_to_numpy(mb.ops.matmul(x, x))
    assert y.tolist() == [[7.0, 10.0], [15.0, 22.0]]
    symbolic = mb.KerasTensor((None, 3))
    assert mb.ops.matmul(symbolic, mb.KerasTensor((3, 5))).shape == (None, 5)
