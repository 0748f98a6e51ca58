"""Runs losses in Keras 3 (a subprocess, KERAS_BACKEND=jax) for comparisons.

Keras is a test-only dependency: it is imported only in the child process.
A case is either a loss object, given as the config mb's `serialize` writes
(so Keras reading mb's configs is part of every comparison), or a loss
function of ``keras.losses`` by name with keyword arguments; plus the arrays
``y_true``, ``y_pred`` and optionally ``sample_weight``.
"""

import json
import os

import numpy as np

from mb_ops import testing

_SCRIPT = r"""
results = {}
for i, case in enumerate(cases):
    y_true, y_pred = arrays[f"{i}_true"], arrays[f"{i}_pred"]
    if case["kind"] == "object":
        loss = keras.losses.deserialize(case["config"])
        if isinstance(loss, str):
            # Keras 3 leaves CategoricalGeneralizedCrossEntropy out of the table its
            # deserialize reads (it returns the class name); build it directly.
            loss = getattr(keras.losses, loss)(**case["config"]["config"])
        sw = arrays[f"{i}_sw"] if case["has_sw"] else None
        out = loss(y_true, y_pred, sample_weight=sw)
    elif case["kind"] == "function":
        out = getattr(keras.losses, case["name"])(y_true, y_pred, **case["kwargs"])
    else:
        if case["kind"] == "construct":
            obj = getattr(keras.losses, case["name"])(**case["kwargs"])
        elif case["config"].get("class_name") == "CategoricalGeneralizedCrossEntropy":
            # Keras 3 leaves this class out of the table its deserialize reads.
            obj = keras.losses.CategoricalGeneralizedCrossEntropy(**case["config"]["config"])
        else:
            obj = keras.losses.deserialize(case["config"])
        results[f"{i}_config"] = np.frombuffer(
            json.dumps(keras.losses.serialize(obj)).encode(), dtype=np.uint8
        )
        continue
    results[f"{i}_out"] = np.asarray(keras.ops.convert_to_numpy(out))
np.savez(f"{folder}/results.npz", **results)
"""


def object_case(config, y_true, y_pred, sample_weight=None):
    """A loss object (its serialized config) called on the arrays."""
    return {"kind": "object", "config": config, "arrays": (y_true, y_pred, sample_weight)}


def function_case(name, y_true, y_pred, **kwargs):
    """``keras.losses.<name>(y_true, y_pred, **kwargs)``."""
    return {"kind": "function", "name": name, "kwargs": kwargs, "arrays": (y_true, y_pred, None)}


def config_case(config):
    """Keras deserializes `config` (a loss object or a function) and serializes it again."""
    return {"kind": "config", "config": config, "arrays": (np.zeros(1), np.zeros(1), None)}


def construct_case(class_name, **kwargs):
    """Keras builds ``keras.losses.<class_name>(**kwargs)`` and serializes it."""
    return {
        "kind": "construct",
        "name": class_name,
        "kwargs": kwargs,
        "arrays": (np.zeros(1), np.zeros(1), None),
    }


def run_keras(cases, backend="jax"):
    """Keras 3's result for each case: an array, or the re-serialized config (a dict)."""
    meta, arrays = [], {}
    for i, case in enumerate(cases):
        y_true, y_pred, sw = case["arrays"]
        arrays[f"{i}_true"] = np.asarray(y_true)
        arrays[f"{i}_pred"] = np.asarray(y_pred)
        if sw is not None:
            arrays[f"{i}_sw"] = np.asarray(sw)
        entry = {k: v for k, v in case.items() if k != "arrays"}
        entry["has_sw"] = sw is not None
        meta.append(entry)
    jax_platforms = os.environ.get("JAX_PLATFORMS", "cpu")
    found = testing.keras_cases(_SCRIPT, meta, arrays, backend=backend, JAX_PLATFORMS=jax_platforms)
    out = []
    for i in range(len(cases)):
        if f"{i}_config" in found:
            out.append(json.loads(found[f"{i}_config"].tobytes().decode()))
        else:
            out.append(found[f"{i}_out"])
    return out
