"""Image ops: JAX's fill modes in map_coordinates, warps, colour round trips, resize."""

import numpy as np
import pytest

from mb_backend_openvino import core, image

RNG = np.random.default_rng(4)
LINE = np.array([10.0, 20.0, 30.0, 40.0], "float32")
OUTSIDE = np.array([-1.0, 4.0, 5.0, -2.0], "float32")


def _np(t):
    return core.convert_to_numpy(t)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("nearest", [10, 40, 40, 10]),
        ("wrap", [40, 10, 20, 30]),
        ("mirror", [20, 30, 20, 30]),  # d c b | a b c d | c b a
        ("reflect", [10, 40, 30, 20]),  # d c b a | a b c d | d c b a
        ("constant", [-1, -1, -1, -1]),
    ],
)
def test_map_coordinates_fill_modes_follow_jax(mode, expected):
    got = _np(image.map_coordinates(LINE, [OUTSIDE], 0, fill_mode=mode, fill_value=-1.0))
    np.testing.assert_array_equal(got, expected)


def test_map_coordinates_interpolates_linearly_and_blends_the_fill_value():
    got = _np(image.map_coordinates(LINE, [np.array([1.5, -0.5, 3.0], "float32")], 1))
    np.testing.assert_allclose(got, [25.0, 5.0, 40.0], rtol=1e-6)


def test_affine_translation_moves_pixels_and_fills_the_border():
    img = RNG.standard_normal((1, 5, 6, 2)).astype("float32")
    # Output (y, x) samples input (y, x + 2): the image moves two columns left.
    shift = np.array([1, 0, 2, 0, 1, 0, 0, 0], "float32")
    got = _np(image.affine_transform(img, shift, "nearest", "constant", 0.0, "channels_last"))
    np.testing.assert_allclose(got[:, :, :4], img[:, :, 2:], rtol=1e-6)
    np.testing.assert_array_equal(got[:, :, 4:], 0.0)
    first = _np(
        image.affine_transform(
            np.transpose(img, (0, 3, 1, 2)), shift, "nearest", "constant", 0.0, "channels_first"
        )
    )
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), got, rtol=1e-6)


def test_perspective_with_equal_corners_is_the_identity():
    img = RNG.standard_normal((2, 4, 4, 1)).astype("float32")
    corners = np.array([[0, 0], [3, 0], [0, 3], [3, 3]], "float32")
    got = _np(image.perspective_transform(img, corners, corners, data_format="channels_last"))
    np.testing.assert_allclose(got, img, atol=1e-5)


def test_elastic_transform_is_reproducible_for_a_seed():
    img = RNG.standard_normal((1, 8, 8, 1)).astype("float32")
    a = _np(image.elastic_transform(img, 2.0, 1.0, seed=3, data_format="channels_last"))
    b = _np(image.elastic_transform(img, 2.0, 1.0, seed=3, data_format="channels_last"))
    c = _np(image.elastic_transform(img, 2.0, 1.0, seed=4, data_format="channels_last"))
    np.testing.assert_array_equal(a, b)
    assert a.shape == img.shape and not np.allclose(a, c)


def test_hsv_round_trip_and_grayscale_weights():
    rgb = RNG.uniform(0, 1, (2, 3, 3, 3)).astype("float32")
    back = image.hsv_to_rgb(image.rgb_to_hsv(rgb, "channels_last"), "channels_last")
    np.testing.assert_allclose(_np(back), rgb, atol=1e-5)
    gray = _np(image.rgb_to_grayscale(rgb, "channels_last"))
    np.testing.assert_allclose(gray[..., 0], rgb @ np.array([0.2989, 0.5870, 0.1140]), rtol=1e-5)


def test_bilinear_resize_doubles_a_ramp_and_sobel_finds_its_slope():
    ramp = np.tile(np.arange(4, dtype="float32"), (4, 1))[None, :, :, None]
    big = _np(image.resize(ramp, (4, 8), "bilinear", data_format="channels_last"))
    # Half-pixel centres: output column j samples input column (j + 0.5) / 2 - 0.5.
    expected = np.clip((np.arange(8) + 0.5) / 2 - 0.5, 0, 3)
    np.testing.assert_allclose(big[0, 0, :, 0], expected, atol=1e-6)
    edges = _np(image.sobel_edges(ramp, "channels_last"))
    np.testing.assert_allclose(edges[0, 1:3, 1:3, 0, 1], 8.0)  # d/dx of a unit ramp, times 8
    np.testing.assert_allclose(edges[0, 1:3, 1:3, 0, 0], 0.0)
