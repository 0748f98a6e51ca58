"""mb's static shapes and dtypes agree with Keras 3's for every kit case.

Keras computes each spec with its own ``compute_output_spec`` (in a child process,
Keras' NumPy backend); the kit cases give the inputs. The exceptions are listed
with the reason: places where Keras' static spec disagrees with what Keras itself
returns eagerly, and one deliberate rule of mb.
"""

import json

import numpy as np
import pytest

from mb_ops import testing
from mb_ops._ops._machinery import REGISTRY
from mb_ops.testing._case import _flatten, _symbolic

DEVIATIONS = {
    # Keras' static spec is wrong here (its eager results agree with mb):
    "numpy.vstack": "Keras' spec flattens 1-D inputs to (6,); np.vstack gives (2, 3)",
    "numpy.ndim": "Keras' spec is a float32 tensor of the input's rank length",
    "numpy.corrcoef": "Keras' spec keeps the input shape; the result is (rows, rows)",
    "nn.polar": "Keras' spec says float32; the result is complex",
    "numpy.angle": "Keras' spec keeps complex64; the result is real",
    "numpy.real": "Keras' spec keeps complex64; the result is real",
    "numpy.imag": "Keras' spec keeps complex64; the result is real",
    "nn.multi_hot": "Keras' spec says int32; Keras returns floatx by default",
    "linalg.lu_factor": "Keras' spec says float32 pivots; pivots are integers",
    "numpy.reciprocal[float16]": "Keras' spec says float32; Keras on JAX returns float16",
    # mb's rule: a Python float is weak, so float16 stays float16 (as in JAX).
    "numpy.arctan2[float16_pyfloat]": "Keras converts the Python float to float32 first",
}

_KERAS = r"""
import json, os, sys
os.environ["KERAS_BACKEND"] = "numpy"
import keras
from keras import ops

def dec(x):
    if isinstance(x, dict) and "__kt__" in x:
        shape, dtype = x["__kt__"]
        return keras.KerasTensor(tuple(shape), dtype=dtype)
    if isinstance(x, dict) and "__tuple__" in x:
        return tuple(dec(v) for v in x["__tuple__"])
    if isinstance(x, list):
        return [dec(v) for v in x]
    if isinstance(x, dict):
        return {k: dec(v) for k, v in x.items()}
    return x

def flat(x):
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in flat(v)]
    return [x]

modules = {"linalg": ops.linalg, "image": ops.image}
out = {}
for cid, module, name, args, kwargs in json.load(sys.stdin):
    try:
        result = getattr(modules.get(module, ops), name)(*dec(args), **dec(kwargs))
        out[cid] = [[list(t.shape), str(t.dtype)] for t in flat(result)]
    except Exception:
        pass  # Keras cannot infer it statically: nothing to compare
print(json.dumps(out))
"""


def _encode(x):
    if isinstance(x, np.ndarray | np.generic):
        return {"__kt__": [list(np.shape(x)), str(x.dtype)]}
    if isinstance(x, list):
        return [_encode(v) for v in x]
    if isinstance(x, tuple):
        return {"__tuple__": [_encode(v) for v in x]}
    if isinstance(x, dict):
        return {k: _encode(v) for k, v in x.items()}
    if callable(x) or isinstance(x, slice) or x is Ellipsis:
        raise TypeError("not JSON-able")
    return x


def test_static_specs_match_keras3():
    pytest.importorskip("keras", reason="keras is an optional test-only reference")
    cases = {}
    for case in testing.cases():
        try:
            cases[case.id] = (case, _encode(list(case.args)), _encode(case.kwargs))
        except TypeError:
            continue
    payload = [[cid, c.module, c.name, a, k] for cid, (c, a, k) in cases.items()]
    keras_specs = testing.keras_json(_KERAS, backend="numpy", input=json.dumps(payload))
    assert len(keras_specs) > 500
    mismatches = []
    for cid, keras_spec in keras_specs.items():
        case = cases[cid][0]
        if cid in DEVIATIONS or case.op in DEVIATIONS:
            continue
        info = REGISTRY[(case.module, case.name)]
        spec = info.operation_class().compute_output_spec(
            *_symbolic(case.args), **_symbolic(case.kwargs)
        )
        ours = [[list(s.shape), s.dtype] for s in _flatten(spec)]
        if ours != keras_spec:
            mismatches.append((cid, ours, keras_spec))
    assert not mismatches, mismatches
