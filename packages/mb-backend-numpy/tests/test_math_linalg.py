"""The math and linalg contract modules: NumPy/SciPy identities and Keras 3 comparisons."""

import warnings

import numpy as np
import pytest
import scipy.special
from _cases import floats, positives
from _keras_ref import keras_backend_module, keras_ops
from _math_cases import LINALG_CASES, MATH_CASES, SPD

from mb_backend_numpy import linalg, math

TOLERANCE = {"float16": 5e-3, "bfloat16": 3e-2, "float32": 2e-4, "float64": 1e-9}


def _leaves(x):
    if isinstance(x, list | tuple):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _compare(mine, ref, check_dtype=True):
    for a, b in zip(_leaves(mine), _leaves(ref), strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape
        if check_dtype:
            assert a.dtype == b.dtype
        tol = TOLERANCE.get(str(a.dtype), 0)
        np.testing.assert_allclose(a.astype("float64"), b.astype("float64"), rtol=tol, atol=tol)


def _case_id(case):
    return f"{case[0]}-{sorted(case[2])}"


@pytest.mark.parametrize("case", MATH_CASES, ids=_case_id)
def test_math_op_matches_keras(case):
    keras_ops()
    name, args, kwargs = case
    ref_module = keras_backend_module("math")
    # SciPy's istft (Keras's reference path) warns about its own boundary handling.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ref = getattr(ref_module, name)(*args, **kwargs)
    # top_k indices are int32 in mb (as JAX and TF); Keras's numpy backend gives int64.
    _compare(getattr(math, name)(*args, **kwargs), ref, check_dtype=name != "top_k")


@pytest.mark.parametrize("case", LINALG_CASES, ids=_case_id)
def test_linalg_op_matches_keras(case):
    ops = keras_ops()
    name, args, kwargs = case
    _compare(getattr(linalg, name)(*args, **kwargs), getattr(ops.linalg, name)(*args, **kwargs))


def test_segment_reductions_match_a_python_loop():
    data = floats(7, 2)
    ids = np.array([0, 2, 2, -1, 1, 0, 2])
    out = math.segment_sum(data, ids, num_segments=3)
    ref = np.stack([data[ids == s].sum(0) for s in range(3)])
    np.testing.assert_allclose(out, ref, rtol=1e-6)
    top = math.segment_max(data, ids, num_segments=3)
    np.testing.assert_array_equal(top, np.stack([data[ids == s].max(0) for s in range(3)]))


def test_top_k_returns_sorted_values_and_indices():
    x = floats(4, 9)
    values, indices = math.top_k(x, 3)
    np.testing.assert_array_equal(values, -np.sort(-x, axis=-1)[:, :3])
    np.testing.assert_array_equal(np.take_along_axis(x, indices, -1), values)
    assert indices.dtype == np.int32


def test_fft_family_matches_numpy_fft():
    re, im = floats(3, 8), floats(3, 8)
    out_re, out_im = math.fft((re, im))
    ref = np.fft.fft(re + 1j * im)
    np.testing.assert_allclose(out_re + 1j * out_im, ref, rtol=1e-4, atol=1e-5)
    signal = floats(2, 10)
    spec = math.rfft(signal)
    np.testing.assert_allclose(math.irfft(spec, 10), signal, rtol=1e-4, atol=1e-5)


def test_istft_inverts_stft():
    signal = floats(2, 80, dtype="float64")
    spec = math.stft(signal, 16, 4, 16)
    back = math.istft(spec, 16, 4, 16, length=80)
    np.testing.assert_allclose(back, signal, rtol=1e-8, atol=1e-8)


def test_special_functions_match_scipy():
    x = floats(10, low=-0.95, high=0.95)
    np.testing.assert_allclose(math.erf(x), scipy.special.erf(x), rtol=1e-6)
    np.testing.assert_allclose(math.erfinv(x), scipy.special.erfinv(x), rtol=1e-5)
    p = positives(5)
    np.testing.assert_allclose(math.rsqrt(p), 1 / np.sqrt(p), rtol=1e-6)
    np.testing.assert_allclose(math.logsumexp(x), np.log(np.exp(x).sum()), rtol=1e-6)


def test_linalg_identities():
    inverse = linalg.inv(SPD)
    np.testing.assert_allclose(inverse @ SPD, np.eye(3), atol=1e-4)
    lower = linalg.cholesky(SPD)
    np.testing.assert_allclose(lower @ lower.T, SPD, rtol=1e-5)
    np.testing.assert_allclose(linalg.cholesky_inverse(lower), inverse, rtol=1e-4, atol=1e-5)
    b = floats(3, 2)
    np.testing.assert_allclose(SPD @ linalg.solve(SPD, b), b, atol=1e-4)
    x = linalg.solve_triangular(lower, b, lower=True)
    np.testing.assert_allclose(lower @ x, b, atol=1e-4)
    q, _r = linalg.qr(floats(5, 3))
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-5)
    assert linalg.matrix_rank(np.ones((3, 3), "float32")) == 1


def test_jvp_is_declared_unsupported_with_a_clear_error():
    assert "jvp" in linalg.UNSUPPORTED
    with pytest.raises(NotImplementedError, match="jvp is not supported on the numpy backend"):
        linalg.jvp(lambda x: x, (1.0,), (1.0,))
