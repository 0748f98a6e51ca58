"""OpenVINOTensor: operators and indexing run through OpenVINO and agree with NumPy."""

import numpy as np
import pytest

from mb_backend_openvino import core

RNG = np.random.default_rng(1)
DATA = RNG.standard_normal((2, 3, 4)).astype("float32")


@pytest.fixture
def x():
    return core.convert_to_tensor(DATA)


def _np(t):
    return core.convert_to_numpy(t)


def test_attributes_and_python_conversions(x):
    assert x.shape == (2, 3, 4) and x.dtype == "float32" and x.ndim == 3 and len(x) == 2
    assert core.is_tensor(x) and not core.is_tensor(DATA)
    scalar = core.convert_to_tensor(2.5)
    assert float(scalar) == 2.5 and int(core.convert_to_tensor(3)) == 3
    assert bool(core.convert_to_tensor(True))
    np.testing.assert_array_equal(np.asarray(x), DATA)


def test_arithmetic_and_comparisons_match_numpy(x):
    np.testing.assert_allclose(_np(x + 1), DATA + 1, rtol=1e-6)
    np.testing.assert_allclose(_np(2 - x), 2 - DATA, rtol=1e-6)
    np.testing.assert_allclose(_np(x * x / 3), DATA * DATA / 3, rtol=1e-6)
    np.testing.assert_allclose(_np(-x), -DATA)
    np.testing.assert_allclose(_np(abs(x)), np.abs(DATA))
    np.testing.assert_allclose(
        _np(x @ np.ones((4, 2), "float32")), DATA @ np.ones((4, 2)), rtol=1e-5
    )
    np.testing.assert_array_equal(_np(x > 0), DATA > 0)
    # A NumPy array on the left defers to the tensor's reflected operator.
    np.testing.assert_allclose(_np(DATA + x), 2 * DATA, rtol=1e-6)


def test_integer_operators_follow_numpy(x):
    a = core.convert_to_tensor(np.array([-7, 7, 5], "int32"))
    np.testing.assert_array_equal(_np(a // 2), np.array([-7, 7, 5]) // 2)
    np.testing.assert_array_equal(_np(a % 3), np.array([-7, 7, 5]) % 3)
    np.testing.assert_array_equal(_np(a & 3), np.array([-7, 7, 5]) & 3)
    np.testing.assert_array_equal(_np(~a), ~np.array([-7, 7, 5]))


@pytest.mark.parametrize(
    "key",
    [
        0,
        -1,
        (slice(None), 1),
        (Ellipsis, -1),
        (None, 0, slice(1, None, 2)),
        slice(None, None, -1),
        [1, 0],
        (0, slice(None), [1, 3]),
        (slice(None), [0, 2], [1, 3]),
        ([0, 1], slice(None), [1, 3]),
        (1, Ellipsis, None),
    ],
    ids=str,
)
def test_indexing_matches_numpy(x, key):
    np.testing.assert_array_equal(_np(x[key]), DATA[key])


def test_boolean_masks_match_numpy(x):
    mask = DATA > 0.3
    np.testing.assert_array_equal(_np(x[mask]), DATA[mask])
    rows = DATA[..., 0] > 0
    np.testing.assert_array_equal(_np(x[rows]), DATA[rows])


def test_out_of_bounds_index_and_item_assignment_are_refused(x):
    with pytest.raises(IndexError, match="out of bounds"):
        x[5]
    with pytest.raises(TypeError, match="immutable"):
        x[0] = 1.0


def test_eight_bit_arithmetic_wraps_around_as_numpy():
    # OpenVINO's CPU saturates int8/uint8 sums; the backend keeps NumPy's wrapping.
    a = np.array([120, -100, 3], "int8")
    b = np.array([10, -100, -2], "int8")
    with np.errstate(over="ignore"):
        for op in ("__add__", "__sub__", "__mul__"):
            got = _np(getattr(core.convert_to_tensor(a), op)(core.convert_to_tensor(b)))
            np.testing.assert_array_equal(got, getattr(a, op)(b))
        u = np.array([250, 7], "uint8")
        np.testing.assert_array_equal(_np(core.convert_to_tensor(u) + u), u + u)
