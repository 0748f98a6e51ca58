"""Test support: `to_numpy`, and runs of metrics in Keras 3 (a subprocess) for comparisons.

Keras is a test-only dependency and is never imported in the test process.
Each case is a metric serialized by mb (so Keras reading mb's config is part of
the check) and a list of update batches: tuples of positional arrays whose last
entry is the sample weight (or None), e.g. ``(y_true, y_pred, sample_weight)``,
or ``(values, sample_weight)`` for `Mean`. Keras runs ``update_state`` on each
batch in turn and returns ``result()``.
"""

import json
import os
import tempfile

import numpy as np

from mb_ops import ops, testing
from mb_train import metrics

_SCRIPT = r"""
out = {}
for i, case in enumerate(cases):
    metric = keras.metrics.deserialize(case["config"])
    for j in range(case["num_batches"]):
        args = [arrays[f"{i}_{j}_{k}"] for k in range(case["num_args"][j])]
        weight = arrays[f"{i}_{j}_w"] if f"{i}_{j}_w" in arrays.files else None
        metric.update_state(*args, sample_weight=weight)
    out[str(i)] = keras.ops.convert_to_numpy(metric.result())
np.savez(f"{folder}/results.npz", **out)
"""


def keras_results(cases, backend="numpy"):
    """Keras 3's result for each ``(mb_metric, batches)``."""
    meta, arrays = [], {}
    for i, (metric, batches) in enumerate(cases):
        for j, (*args, weight) in enumerate(batches):
            for k, arg in enumerate(args):
                arrays[f"{i}_{j}_{k}"] = np.asarray(arg)
            if weight is not None:
                arrays[f"{i}_{j}_w"] = np.asarray(weight)
        meta.append(
            {
                "config": metrics.serialize(metric),
                "num_batches": len(batches),
                "num_args": [len(batch) - 1 for batch in batches],
            }
        )
    found = testing.keras_cases(_SCRIPT, meta, arrays, backend=backend)
    return [found[str(i)] for i in range(len(cases))]


_CONFIG_SCRIPT = r"""
import json, sys
import keras
cases = json.load(open(sys.argv[1]))
out = []
for name, kwargs in cases:
    out.append(keras.metrics.serialize(getattr(keras.metrics, name)(**kwargs)))
json.dump(out, open(sys.argv[2], "w"))
"""


def keras_configs(cases):
    """Keras 3's ``keras.metrics.serialize(keras.metrics.<name>(**kwargs))`` per case."""
    with tempfile.TemporaryDirectory() as folder:
        cases_path = os.path.join(folder, "cases.json")
        out_path = os.path.join(folder, "out.json")
        with open(cases_path, "w") as f:
            json.dump(cases, f)
        _run_keras([_CONFIG_SCRIPT, cases_path, out_path])
        with open(out_path) as f:
            return json.load(f)


def _run_keras(args, backend="numpy"):
    testing.run_keras(*args, backend=backend)


def to_numpy(x):
    """A tensor (or a metric result) as a NumPy array."""
    return np.asarray(ops.convert_to_numpy(x))


def mb_result(metric, batches):
    """mb's result after updating `metric` with each batch in turn, as NumPy."""
    for *args, weight in batches:
        metric.update_state(*args, sample_weight=weight)
    return to_numpy(metric.result())


def assert_matches_keras(cases, atol, rtol=0.0):
    """Asserts mb and Keras 3 agree on every ``(metric factory, batches)`` case.

    A factory (not an instance) is given so the same configuration is updated
    fresh on both sides.
    """
    built = [(factory(), batches) for factory, batches in cases]
    expected = keras_results(built)
    for (metric, batches), reference in zip(built, expected, strict=True):
        got = mb_result(metric, batches)
        np.testing.assert_allclose(
            got,
            reference,
            atol=atol,
            rtol=rtol,
            err_msg=f"{type(metric).__name__} {metric.get_config()} differs from Keras 3",
        )
