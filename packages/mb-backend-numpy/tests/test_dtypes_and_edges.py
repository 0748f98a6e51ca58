"""Promotion across dtypes, bfloat16/float16 inputs, zero-size inputs and Variable operands."""

import itertools

import ml_dtypes
import numpy as np
import pytest
from _cases import floats

import mb_backend_numpy.nn as mnn
import mb_backend_numpy.numpy as mnp
from mb_backend_numpy import core
from mb_ops.dtypes import result_type

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "float16", "bfloat16", "float32", "float64"]


def _array(dtype):
    return core.convert_to_tensor(np.array([1, 0, 1], dtype="float32"), dtype=dtype)


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations_with_replacement(DTYPES, 2)))
def test_binary_results_follow_mb_result_type(a, b):
    expected = result_type(a, b)
    for op in (mnp.add, mnp.multiply, mnp.maximum, mnp.where):
        args = (np.array([True, False, True]), _array(a), _array(b)) if op is mnp.where else None
        out = op(*args) if args else op(_array(a), _array(b))
        assert str(out.dtype) == expected, (op.__name__, a, b)


@pytest.mark.parametrize("dtype", ["int8", "int32", "float16", "bfloat16", "float32"])
@pytest.mark.parametrize("scalar", [2, 2.5])
def test_python_scalars_are_weak(dtype, scalar):
    out = mnp.add(_array(dtype), scalar)
    assert str(out.dtype) == result_type(dtype, type(scalar))


@pytest.mark.parametrize("name", ["exp", "log1p", "sin", "tanh", "sqrt", "square", "abs"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_unary_ops_keep_their_dtype(name, dtype):
    x = np.abs(floats(8)) + 0.1
    out = getattr(mnp, name)(x.astype(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype))
    assert str(out.dtype) == dtype
    tol = 2e-2 if dtype == "bfloat16" else 2e-3
    ref = getattr(np, {"abs": "absolute"}.get(name, name))(x.astype("float64"))
    np.testing.assert_allclose(out.astype("float64"), ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_conv_and_matmul(dtype):
    x, k = floats(1, 6, 6, 2), floats(3, 3, 2, 3)
    low = core.cast(x, dtype), core.cast(k, dtype)
    out = mnn.conv(*low, data_format="channels_last")
    assert str(out.dtype) == dtype
    ref = mnn.conv(*(core.cast(v, "float32") for v in low), data_format="channels_last")
    np.testing.assert_allclose(out.astype("float32"), ref, rtol=5e-2, atol=5e-2)
    m = mnp.matmul(low[0][0, 0], core.cast(np.ones((2, 2)), dtype))
    assert str(m.dtype) == dtype


def test_zero_size_inputs():
    empty = np.zeros((0, 3), "float32")
    assert mnp.sum(empty, axis=0).shape == (3,)
    np.testing.assert_array_equal(mnp.sum(empty), 0.0)
    assert np.isnan(mnp.mean(empty))
    assert mnp.matmul(empty, np.ones((3, 2), "float32")).shape == (0, 2)
    assert mnp.concatenate([empty, np.ones((2, 3), "float32")]).shape == (2, 3)
    assert mnn.relu(empty).shape == (0, 3)
    conv = mnn.conv(
        np.zeros((0, 5, 5, 2), "float32"), floats(3, 3, 2, 4), data_format="channels_last"
    )
    assert conv.shape == (0, 3, 3, 4)
    assert mnp.argsort(np.zeros((0,), "float32")).shape == (0,)


def test_all_nan_and_empty_slices_give_nan_without_warnings():
    rows = np.array([[np.nan, np.nan], [1.0, np.nan]], "float32")
    for name in ("nanmean", "nanmax", "nanmin", "nanmedian", "nanvar", "nanstd"):
        out = getattr(mnp, name)(rows, axis=1)
        assert np.isnan(out[0]) and not np.isnan(out[1]), name
    assert np.isnan(mnp.var(np.zeros((0,), "float32")))
    np.testing.assert_array_equal(mnp.nanargmax(rows, axis=1), [-1, 0])


def test_variables_are_accepted_by_ops():
    v = core.Variable(np.array([1.0, -2.0, 3.0], "float32"))
    np.testing.assert_array_equal(mnp.add(v, 1.0), [2.0, -1.0, 4.0])
    np.testing.assert_array_equal(mnn.relu(v), [1.0, 0.0, 3.0])
    np.testing.assert_array_equal(mnp.matmul(v, v), 14.0)
    v.assign([0.0, 0.0, 1.0])
    np.testing.assert_array_equal(mnp.sum(v), 1.0)
