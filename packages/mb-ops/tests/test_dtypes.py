import json

import ml_dtypes
import numpy as np
import pytest

from mb_ops import config, dtypes, testing

_PROMOTABLE = [
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
# mb keeps 64-bit results; Keras 3 (off TensorFlow) narrows them to 32 bits.
_KERAS_NARROWING = {
    "int64": "int32",
    "uint64": "uint32",
    "float64": "float32",
    "complex128": "complex64",
}

_KERAS_SCRIPT = """
import json, os, sys
os.environ["KERAS_BACKEND"] = "numpy"
import keras
names = json.loads(sys.argv[1])
weak = {"int": int, "float": float}
out = {}
for a in names:
    for b in names:
        try:
            out[a + "," + b] = keras.backend.result_type(weak.get(a, a), weak.get(b, b))
        except Exception as exc:
            out[a + "," + b] = "error"
print(json.dumps(out))
"""


def test_standardize_dtype_accepts_every_spelling():
    assert dtypes.standardize_dtype(None) == config.floatx()
    assert dtypes.standardize_dtype("int64") == "int64"
    assert dtypes.standardize_dtype(np.float64) == "float64"
    assert dtypes.standardize_dtype(np.dtype("uint8")) == "uint8"
    assert dtypes.standardize_dtype(int) == "int32"
    assert dtypes.standardize_dtype(float) == "float32"
    assert dtypes.standardize_dtype(bool) == "bool"
    assert dtypes.standardize_dtype(ml_dtypes.bfloat16) == "bfloat16"
    assert dtypes.standardize_dtype(np.dtype(ml_dtypes.bfloat16)) == "bfloat16"


def test_standardize_dtype_reads_engine_dtype_objects():
    class EngineDtype:  # like tf.DType: has a .name
        name = "float16"

    class TorchLikeDtype:  # like torch.dtype: only str()
        __slots__ = ()

        def __str__(self):
            return "torch.bfloat16"

    assert dtypes.standardize_dtype(EngineDtype()) == "float16"
    assert dtypes.standardize_dtype(TorchLikeDtype()) == "bfloat16"


def test_standardize_dtype_rejects_unknown_names_with_the_choices():
    with pytest.raises(ValueError, match=r"float33.*Expected one of"):
        dtypes.standardize_dtype("float33")


def test_dtype_predicates():
    assert dtypes.is_float_dtype("bfloat16") and not dtypes.is_float_dtype("int8")
    assert dtypes.is_int_dtype("uint16") and not dtypes.is_int_dtype("bool")
    assert set(dtypes.FLOAT_TYPES) <= set(dtypes.ALLOWED_DTYPES)
    assert set(dtypes.INT_TYPES) <= set(dtypes.ALLOWED_DTYPES)


def test_python_scalars_are_weak():
    assert dtypes.result_type("float16", float) == "float16"
    assert dtypes.result_type("int8", int) == "int8"
    assert dtypes.result_type("int8", float) == config.floatx()
    assert dtypes.result_type(float) == config.floatx()
    assert dtypes.result_type(int) == "int32"
    assert dtypes.result_type() == config.floatx()


def test_64_bit_inputs_keep_64_bit_results():
    assert dtypes.result_type("int64", "int8") == "int64"
    assert dtypes.result_type("float64", "float32") == "float64"
    assert dtypes.result_type("float64", float) == "float64"


def test_float8_refuses_implicit_promotion():
    with pytest.raises(ValueError, match="float8"):
        dtypes.result_type("float8_e4m3fn", "float32")


def test_result_type_matches_keras3_for_every_mixed_pair():
    pytest.importorskip("keras", reason="keras is an optional test-only reference")
    names = [*_PROMOTABLE, "int", "float"]
    expected = testing.keras_json(_KERAS_SCRIPT, json.dumps(names), backend="numpy")
    weak = {"int": int, "float": float}
    mismatches = []
    for key, keras_result in expected.items():
        a, b = key.split(",")
        try:
            ours = dtypes.result_type(weak.get(a, a), weak.get(b, b))
        except ValueError:
            ours = "error"
        if _KERAS_NARROWING.get(ours, ours) != keras_result:
            mismatches.append((a, b, ours, keras_result))
    assert not mismatches, mismatches[:20]
    # Results below 64 bits are identical, not just equal up to narrowing.
    for key, keras_result in expected.items():
        a, b = key.split(",")
        ours = dtypes.result_type(weak.get(a, a), weak.get(b, b))
        if ours not in _KERAS_NARROWING:
            assert ours == keras_result, (a, b)
