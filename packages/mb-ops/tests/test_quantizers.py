"""``mb_ops.quantizers`` gives Keras 3's numbers (Keras runs in a subprocess, numpy backend)."""

import importlib.util
import json
import os
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

from mb_ops import KerasTensor, ops, quantizers

# Keras's numpy backend (the reference here) imports jax; an install of mb-ops alone has neither.
needs_keras = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("keras", "jax")),
    reason="Keras 3 on its numpy backend (keras and jax) is a test-only reference",
)

# Every case: (name, the call written once for both libraries as text over `q`, `ops`, `np`).
CASES = {
    "abs_max_rows": "q.abs_max_quantize(W, axis=-1)",
    "abs_max_cols_numpy": "q.abs_max_quantize(W, axis=0, to_numpy=True)",
    "abs_max_int4": "q.abs_max_quantize(W, axis=0, value_range=(-8, 7))",
    "abs_max_axes": "q.abs_max_quantize(X3, axis=[0, 2])",
    "quantizer": "q.AbsMaxQuantizer(axis=1, value_range=(-100, 100))(W)",
    "grouped_tensor": "q.abs_max_quantize_grouped_with_zero_point(W, block_size=4)",
    "grouped_numpy": "q.abs_max_quantize_grouped_with_zero_point(W, block_size=4, to_numpy=True)",
    "float8_scale": "q.compute_float8_scale(AMAX, np.float32(0.5), np.float32(448.0), margin=1)",
    "amax_history": "q.compute_float8_amax_history(W, HIST)",
    "qdq_e4m3": "q.quantize_and_dequantize(W * 300, np.float32(0.7), 'float8_e4m3fn', 'float32')",
    "qdq_e5m2": "q.quantize_and_dequantize(W, np.float32(0.01), 'float8_e5m2', 'float32')",
    "pack_0": "q.pack_int4(I4, axis=0)[0]",
    "pack_1": "q.pack_int4(I4, axis=1)[0]",
    "pack_u8": "q.pack_int4(U4, axis=-1, dtype='uint8')[0]",
    "unpack_0": "q.unpack_int4(q.pack_int4(I4, axis=0)[0], 7, axis=0)",
    "unpack_1": "q.unpack_int4(q.pack_int4(I4, axis=1)[0], 5, axis=1)",
    "unpack_3d": "q.unpack_int4(q.pack_int4(I43, axis=1)[0], 3, axis=1)",
    "unpack_u8": "q.unpack_int4(q.pack_int4(U4, axis=0, dtype='uint8')[0], 7, 0, 'uint8')",
    "fake_tensor": "q.fake_quant_with_min_max_vars(W, -0.4, 0.7, num_bits=4)",
    "fake_narrow": "q.fake_quant_with_min_max_vars(W, -1.0, 1.0, num_bits=8, narrow_range=True)",
    "fake_channel": "q.fake_quant_with_min_max_vars(W, MINS, MAXS, num_bits=3, axis=-1)",
}

# Internal helpers mb shares with Keras's quantizers.quantizers / gptq / awq modules. The
# GPTQ blocks hold whole groups here: Keras 3.15 recomputes a group's scale at every block
# start (so with more inputs than `blocksize` and group_size=-1 its scales stop matching
# its group index); mb computes each group's scale once (see test_gptq_scale_per_group).
INTERNAL = {
    "params_grouped": "qq.compute_quantization_parameters(W.T, bits=4, per_channel=True, "
    "group_size=4)",
    "params_symmetric": "qq.compute_quantization_parameters(W.T, bits=3, symmetric=True, "
    "per_channel=True)",
    "params_tensor": "qq.compute_quantization_parameters(W.T, bits=8)",
    "params_signed": "qq.compute_quantization_parameters(W.T, bits=4, per_channel=True, "
    "group_size=4, signed=True, epsilon=1e-7)",
    "gptq": "gptq.gptq_quantize_matrix(W.T, INVH, blocksize=4, group_size=4, "
    "compute_scale_zero=FIND)",
    "gptq_order": "gptq.gptq_quantize_matrix(W.T, INVH, blocksize=16, activation_order=True, "
    "order_metric=np.diag(INVH), compute_scale_zero=FIND)",
    "awq": "awq.awq_quantize_matrix(W.T, MAG, num_grid_points=5, group_size=4)",
    "awq_channel": "awq.awq_search_optimal_scales(W.T, MAG, num_grid_points=4)",
}

_INPUTS = """
import numpy as np
rng = np.random.default_rng(3)
W = rng.normal(size=(10, 6)).astype("float32")
# Signs alternate along the input axis, so every quantization group straddles zero
# (Keras casts the negative zero point of an all-positive group to uint8, which wraps
# on some backends and saturates on others).
W = (np.abs(W) * np.where(np.arange(10) % 2, 1, -1)[:, None]).astype("float32")
X3 = rng.normal(size=(3, 4, 5)).astype("float32")
AMAX = np.array([3.0, 0.0, np.inf, 500.0], "float32")
HIST = np.array([1.0, 7.0, 2.0], "float32")
I4 = rng.integers(-8, 8, size=(7, 5)).astype("int8")
I43 = rng.integers(-8, 8, size=(2, 3, 4)).astype("int8")
U4 = rng.integers(0, 16, size=(7, 5)).astype("uint8")
MINS = np.linspace(-1.5, -0.2, 6).astype("float32")
MAXS = np.linspace(0.3, 1.2, 6).astype("float32")
A = rng.normal(size=(40, 10)).astype("float32")
H = (2 * A.T @ A / 40 + 0.1 * np.eye(10)).astype("float32")
INVH = np.linalg.inv(H).astype("float32")
MAG = np.abs(A).max(axis=0)
"""

_KERAS = (
    _INPUTS
    + f"INPUTS = {_INPUTS!r}\n"
    + r"""
import json, sys, functools
import keras
from keras import ops, quantizers as q
from keras.src.quantizers import quantizers as qq, gptq, awq
FIND = functools.partial(qq.compute_quantization_parameters, bits=4, per_channel=True)
cases = json.loads(sys.argv[1])
out = {}
for name, text in cases.items():
    # Fresh inputs per case: Keras's numpy backend updates slices in place, so its GPTQ
    # writes into the caller's weights.
    exec(INPUTS)
    result = eval(text)
    result = result if isinstance(result, tuple) else (result,)
    for i, value in enumerate(result):
        if hasattr(value, "shape"):
            out[f"{name}/{i}"] = np.asarray(ops.convert_to_numpy(value)).astype("float64")
np.savez(sys.argv[2], **out)
"""
)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    path = tmp_path_factory.mktemp("keras") / "results.npz"
    subprocess.run(
        [sys.executable, "-c", _KERAS, json.dumps({**CASES, **INTERNAL}), str(path)],
        check=True,
        env={**os.environ, "KERAS_BACKEND": "numpy"},
        capture_output=True,
    )
    return dict(np.load(path))


def _mb(text):
    import functools

    namespace = {}
    exec(_INPUTS, namespace)
    namespace.update(q=quantizers, qq=quantizers, gptq=quantizers, awq=quantizers, ops=ops)
    namespace["FIND"] = functools.partial(
        quantizers.compute_quantization_parameters, bits=4, per_channel=True
    )
    result = eval(text, namespace)
    return result if isinstance(result, tuple) else (result,)


@needs_keras
@pytest.mark.parametrize("name", [*CASES, *INTERNAL])
def test_matches_keras(name, keras_results):
    ours = [v for v in _mb({**CASES, **INTERNAL}[name]) if hasattr(v, "shape")]
    expected = sorted(k for k in keras_results if k.startswith(f"{name}/"))
    assert len(ours) == len(expected)
    for value, key in zip(ours, expected, strict=True):
        value = np.asarray(ops.convert_to_numpy(value)).astype("float64")
        np.testing.assert_allclose(value, keras_results[key], rtol=1e-5, atol=1e-6, err_msg=key)


def test_int4_round_trip_and_errors():
    values = np.arange(-8, 8, dtype="int8").reshape(4, 4)
    packed, shape, length = quantizers.pack_int4(values, axis=1)
    assert shape == (4, 2) and length == 4
    restored = quantizers.unpack_int4(packed, 4, axis=1)
    np.testing.assert_array_equal(ops.convert_to_numpy(restored), values)
    with pytest.raises(TypeError, match="Expected int8 tensor for packing, got float32"):
        quantizers.pack_int4(values.astype("float32"))
    with pytest.raises(ValueError, match="'int8' or 'uint8'"):
        quantizers.unpack_int4(packed, 4, dtype="int16")


def test_abs_max_quantizer_checks_its_range_and_serializes():
    with pytest.raises(ValueError, match=r"within the interval \[-128, 127\]"):
        quantizers.AbsMaxQuantizer(value_range=(-300, 300))
    quantizer = quantizers.AbsMaxQuantizer(axis=0, value_range=(-8, 7))
    config = quantizer.get_config()
    assert config["axis"] == (0,) and config["value_range"] == (-8, 7)
    assert quantizers.AbsMaxQuantizer.from_config(config).value_range == (-8, 7)


def test_quantized_products_are_exact_and_symbolic():
    rng = np.random.default_rng(0)
    a = rng.integers(-127, 128, (3, 1200)).astype("int8")
    b = rng.integers(-127, 128, (1200, 4)).astype("int8")
    exact = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(ops.convert_to_numpy(quantizers.int8_matmul(a, b)), exact)
    out = quantizers.int8_matmul(KerasTensor((None, 7, 16), "int8"), KerasTensor((16, 3), "int8"))
    assert out.shape == (None, 7, 3) and out.dtype == "int32"
    with pytest.raises(TypeError, match="multiplies int8 tensors"):
        quantizers.int8_matmul(KerasTensor((2, 16)), KerasTensor((16, 3), "int8"))
    x = rng.normal(size=(2, 8)).astype(ml_dtypes.float8_e4m3fn)
    w = rng.normal(size=(8, 3)).astype(ml_dtypes.float8_e4m3fn)
    got = ops.convert_to_numpy(quantizers.float8_matmul(x, w, 2.0, 0.25))
    np.testing.assert_allclose(got, (x.astype("float32") * 2) @ (w.astype("float32") / 4), 1e-6)


def test_gptq_scale_per_group_whatever_the_block_size():
    rng = np.random.default_rng(1)
    weights = rng.normal(size=(4, 12)).astype("float32")
    find = quantizers.gptq_parameter_finder(4)
    for blocksize in (3, 5, 12):
        _, scale, zero, g_idx = quantizers.gptq_quantize_matrix(
            weights, np.eye(12, dtype="float32"), blocksize=blocksize, compute_scale_zero=find
        )
        assert tuple(scale.shape) == (4, 1) and tuple(zero.shape) == (4, 1)
        _, scale, _, g_idx = quantizers.gptq_quantize_matrix(
            weights,
            np.eye(12, dtype="float32"),
            blocksize=blocksize,
            group_size=6,
            compute_scale_zero=find,
        )
        assert tuple(scale.shape) == (4, 2)
        assert np.floor(ops.convert_to_numpy(g_idx)).tolist() == [0] * 6 + [1] * 6
