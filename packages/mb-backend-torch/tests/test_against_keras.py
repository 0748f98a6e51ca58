"""Result values and dtypes against Keras 3's own torch backend, for mixed-dtype inputs.

Keras runs in a subprocess (KERAS_BACKEND=torch) on the same inputs and prints its
results; values must agree to 1e-5 and dtypes exactly.
"""

import importlib.util
import json

import numpy as np
import pytest
import torch

from mb_backend_torch import core, nn
from mb_backend_torch import numpy as tnp
from mb_ops import testing

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="keras (test-only) is not installed"
)

# (module, op, args as (values, dtype) pairs or Python scalars, kwargs)
CASES = [
    ("numpy", "add", [([1, 2, 3], "int8"), ([1, 2, 3], "int16")], {}),
    ("numpy", "add", [([1, 2, 3], "int32"), 2.5], {}),
    ("numpy", "multiply", [([1.5, 2, 3], "float16"), ([1, 2, 3], "int32")], {}),
    ("numpy", "subtract", [([1, 2, 3], "uint8"), ([1, 2, 3], "int8")], {}),
    ("numpy", "divide", [([1, 2, 3], "int32"), ([2, 2, 2], "int32")], {}),
    ("numpy", "maximum", [([1, -2, 3], "int32"), ([0.5, 0.5, 0.5], "float32")], {}),
    ("numpy", "matmul", [([[1, 2], [3, 4]], "int32"), ([[1.0, 0], [0, 1]], "float32")], {}),
    ("numpy", "mean", [([1, 2, 4], "int32")], {}),
    ("numpy", "sum", [([True, False, True], "bool")], {}),
    ("numpy", "sqrt", [([1, 4, 9], "int32")], {}),
    ("numpy", "exp", [([0.5, 1.0], "float16")], {}),
    ("numpy", "argmax", [([[1, 5, 2], [7, 0, 1]], "float32")], {"axis": 1}),
    ("numpy", "cumsum", [([True, True, False], "bool")], {}),
    ("numpy", "where", [([True, False], "bool"), ([1, 2], "int32"), ([0.5, 0.5], "float32")], {}),
    ("numpy", "clip", [([1, 5, 9], "int32"), 2, 6], {}),
    ("numpy", "var", [([1, 2, 4, 8], "int32")], {}),
    ("numpy", "floor_divide", [([7, -7, 9], "int32"), ([2, 2, 4], "int32")], {}),
    ("nn", "relu", [([-1.0, 2.0], "float32")], {}),
    ("nn", "softmax", [([[1.0, 2.0, 3.0]], "float32")], {}),
    ("nn", "one_hot", [([0, 2, -1], "int32"), 3], {}),
]

_SCRIPT = r"""
import json, os, sys
os.environ["KERAS_BACKEND"] = "torch"
import numpy as np
import keras
cases = json.loads(sys.stdin.read())
out = []
for module, op, args, kwargs in cases:
    fn = getattr(getattr(keras.ops, module) if module != "nn" else keras.ops.nn, op)
    real = [np.array(a[0], dtype=a[1]) if isinstance(a, list) else a for a in args]
    result = fn(*real, **kwargs)
    out.append([keras.backend.standardize_dtype(result.dtype),
                keras.ops.convert_to_numpy(result).astype("float64").tolist()])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def keras_results():
    return testing.keras_json(_SCRIPT, backend="torch", input=json.dumps(CASES))


@pytest.mark.parametrize(
    "index", range(len(CASES)), ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_matches_keras_torch_backend(index, keras_results):
    module, op, args, kwargs = CASES[index]
    fn = getattr(tnp if module == "numpy" else nn, op)
    real = [np.array(a[0], dtype=a[1]) if isinstance(a, tuple) else a for a in args]
    result = fn(*real, **kwargs)
    dtype, values = keras_results[index]
    assert core.convert_to_numpy(result).dtype.name == dtype or (
        isinstance(result, torch.Tensor) and str(result.dtype).removeprefix("torch.") == dtype
    )
    np.testing.assert_allclose(
        core.convert_to_numpy(result).astype("float64"), np.array(values), rtol=1e-5, atol=1e-5
    )
