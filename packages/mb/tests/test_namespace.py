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
)
TOP_LEVEL = (
    "Function",
    "Input",
    "InputSpec",
    "KerasTensor",
    "Layer",
    "Operation",
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
        f"if not x.startswith('_')) for n in {COMPLETE!r}}}\n"
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
