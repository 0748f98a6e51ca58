"""The image contract module: identities that define each op, and Keras 3 comparisons."""

import warnings

import numpy as np
import pytest
from _cases import floats
from _image_cases import CASES, IMGS
from _keras_ref import keras_backend_module, keras_ops

import mb_backend_numpy.image as mim

TOLERANCE = {"float16": 5e-3, "float32": 1e-4, "float64": 1e-9}


def _case_id(case):
    return f"{case[0]}-{sorted(case[2].items())}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_image_op_matches_keras(case):
    ops = keras_ops()
    name, args, kwargs = case
    fn = getattr(ops.image, name, None) or getattr(keras_backend_module("image"), name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ref = np.asarray(fn(*args, **kwargs))
    mine = np.asarray(getattr(mim, name)(*args, **kwargs))
    assert mine.shape == ref.shape and mine.dtype == ref.dtype
    tol = TOLERANCE.get(str(mine.dtype), 0)
    np.testing.assert_allclose(mine.astype("float64"), ref.astype("float64"), rtol=tol, atol=tol)


def test_grayscale_uses_the_luma_weights():
    gray = mim.rgb_to_grayscale(IMGS, data_format="channels_last")
    ref = IMGS @ np.array([0.2989, 0.5870, 0.1140], "float32")
    np.testing.assert_allclose(gray[..., 0], ref, rtol=1e-5)


def test_hsv_round_trip_and_pure_colors():
    back = mim.hsv_to_rgb(mim.rgb_to_hsv(IMGS, "channels_last"), "channels_last")
    np.testing.assert_allclose(back, IMGS, atol=1e-5)
    red = np.array([[[1.0, 0.0, 0.0]]], "float32")
    np.testing.assert_allclose(mim.rgb_to_hsv(red, "channels_last")[0, 0], [0.0, 1.0, 1.0])


def test_resize_to_the_same_size_and_nearest_upsampling():
    same = mim.resize(IMGS, (8, 7), data_format="channels_last")
    np.testing.assert_allclose(same, IMGS, rtol=1e-6)
    doubled = mim.resize(IMGS, (16, 14), interpolation="nearest", data_format="channels_last")
    np.testing.assert_array_equal(doubled, IMGS.repeat(2, axis=1).repeat(2, axis=2))


def test_map_coordinates_at_integer_points_indexes_the_input():
    x = floats(5, 6)
    rows, cols = np.array([0, 4, 2]), np.array([5, 0, 3])
    for order in (0, 1):
        out = mim.map_coordinates(x, np.stack([rows, cols]).astype("float32"), order)
        np.testing.assert_allclose(out, x[rows, cols], rtol=1e-6)
    half = mim.map_coordinates(x, np.array([[1.5], [2.0]]), 1)
    np.testing.assert_allclose(half, [(x[1, 2] + x[2, 2]) / 2], rtol=1e-6)
    outside = mim.map_coordinates(x, np.array([[-3.0], [1.0]]), 1, fill_value=7.0)
    np.testing.assert_allclose(outside, [7.0])


def test_identity_transforms_return_the_image():
    identity = np.array([1, 0, 0, 0, 1, 0, 0, 0], "float32")
    out = mim.affine_transform(IMGS, identity, data_format="channels_last")
    np.testing.assert_allclose(out, IMGS, rtol=1e-6)
    corners = np.array([[0, 0], [6, 0], [0, 7], [6, 7]], "float32")
    same = mim.perspective_transform(IMGS, corners, corners, data_format="channels_last")
    np.testing.assert_allclose(same, IMGS, rtol=1e-5, atol=1e-6)
    still = mim.elastic_transform(IMGS, alpha=0.0, seed=1, data_format="channels_last")
    np.testing.assert_allclose(still, IMGS, rtol=1e-6)


def test_affine_translation_shifts_pixels():
    shift = np.array([1, 0, 2, 0, 1, 1, 0, 0], "float32")  # output(y, x) = input(y + 1, x + 2)
    out = mim.affine_transform(IMGS, shift, data_format="channels_last")
    np.testing.assert_allclose(out[:, :-1, :-2], IMGS[:, 1:, 2:], rtol=1e-6)
    np.testing.assert_array_equal(out[:, -1], 0)


def test_gaussian_blur_keeps_a_constant_interior_and_sums_to_one():
    flat = np.ones((1, 9, 9, 1), "float32")
    out = mim.gaussian_blur(flat, (3, 3), (1.0, 1.0), data_format="channels_last")
    np.testing.assert_allclose(out[0, 1:-1, 1:-1, 0], 1.0, rtol=1e-6)
    assert out[0, 0, 0, 0] < 1.0  # zero padding at the border


def test_sobel_of_a_ramp_is_constant_inside():
    ramp = np.tile(np.arange(6, dtype="float32"), (5, 1))[None, :, :, None]
    edges = mim.sobel_edges(ramp, data_format="channels_last")
    assert edges.shape == (1, 5, 6, 1, 2)
    np.testing.assert_allclose(edges[0, :, 1:-1, 0, 1], 8.0)
    np.testing.assert_allclose(edges[0, :, :, 0, 0], 0.0)


def test_elastic_transform_is_seeded():
    a = mim.elastic_transform(IMGS, seed=3, data_format="channels_last")
    b = mim.elastic_transform(IMGS, seed=3, data_format="channels_last")
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, IMGS)


def test_image_errors_name_what_was_received():
    with pytest.raises(ValueError, match="rank 3"):
        mim.rgb_to_grayscale(floats(4, 4))
    with pytest.raises(ValueError, match="interpolation must be one of"):
        mim.affine_transform(IMGS, np.zeros(8), interpolation="cubic")
    with pytest.raises(ValueError, match="float images"):
        mim.rgb_to_hsv(IMGS.astype("int32"))
