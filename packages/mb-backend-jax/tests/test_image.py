"""image: against Keras 3's jax backend in both layouts (rtol=1e-5, atol=1e-5 unless noted)."""

import jax.numpy as jnp
import numpy as np
import pytest
from jax_keras_reference import image as kimage

from mb_backend_jax import image

RNG = np.random.default_rng(5)
FORMATS = ["channels_last", "channels_first"]


def _images(data_format, shape=(2, 8, 10, 3)):
    x = RNG.uniform(size=shape).astype("float32")
    return jnp.asarray(np.moveaxis(x, -1, 1) if data_format == "channels_first" else x)


def _close(a, b, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


@pytest.mark.parametrize("data_format", FORMATS)
def test_color_conversions_match_keras(data_format):
    x = _images(data_format)
    for name in ("rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb"):
        _close(getattr(image, name)(x, data_format), getattr(kimage, name)(x, data_format))
    _close(image.hsv_to_rgb(image.rgb_to_hsv(x, data_format), data_format), x, atol=1e-5)
    with pytest.raises(ValueError, match="float"):
        image.rgb_to_hsv(jnp.ones((2, 2, 3), "int32"), "channels_last")


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest", "bicubic", "lanczos3"])
def test_resize_matches_keras(interpolation, data_format):
    x = _images(data_format)
    for kwargs in ({}, {"antialias": True}, {"crop_to_aspect_ratio": True},
                   {"pad_to_aspect_ratio": True, "fill_value": 0.5}):  # fmt: skip
        got = image.resize(x, (5, 4), interpolation, data_format=data_format, **kwargs)
        want = kimage.resize(x, (5, 4), interpolation, data_format=data_format, **kwargs)
        _close(got, want, rtol=1e-4, atol=1e-5)
    single = x[0]
    _close(
        image.resize(single, (4, 4), data_format=data_format),
        kimage.resize(single, (4, 4), data_format=data_format),
    )
    with pytest.raises(ValueError, match="interpolation"):
        image.resize(x, (4, 4), "area", data_format=data_format)


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("fill_mode", ["constant", "nearest", "wrap", "mirror", "reflect"])
@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
def test_affine_transform_matches_keras(interpolation, fill_mode, data_format):
    x = _images(data_format)
    angle = 0.3
    transform = np.array(
        [[np.cos(angle), -np.sin(angle), 2.0, np.sin(angle), np.cos(angle), -1.0, 0, 0],
         [1.2, 0.1, -1.0, 0.0, 0.9, 0.5, 0, 0]], "float32",
    )  # fmt: skip
    got = image.affine_transform(x, transform, interpolation, fill_mode, 0.25, data_format)
    want = kimage.affine_transform(x, transform, interpolation, fill_mode, 0.25, data_format)
    _close(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("data_format", FORMATS)
def test_perspective_transform_and_homography_match_keras(data_format):
    x = _images(data_format)
    start = np.array([[0, 0], [9, 0], [0, 7], [9, 7]], "float32")
    end = np.array([[1, 0], [8, 1], [0, 6], [9, 7]], "float32")
    _close(
        image.compute_homography_matrix(start[None], end[None]),
        kimage.compute_homography_matrix(jnp.asarray(start[None]), jnp.asarray(end[None])),
        rtol=1e-4,
    )
    starts, ends = np.stack([start, start]), np.stack([end, start])
    got = image.perspective_transform(x, starts, ends, data_format=data_format)
    want = kimage.perspective_transform(
        x, jnp.asarray(starts), jnp.asarray(ends), data_format=data_format
    )
    _close(got, want, rtol=1e-4, atol=1e-4)
    # One pair of quadrilaterals applies to every image of the batch.
    shared = image.perspective_transform(x, start, end, data_format=data_format)
    _close(shared[0], got[0], rtol=1e-4, atol=1e-4)


def test_map_coordinates_matches_keras():
    x = jnp.asarray(RNG.uniform(size=(6, 7)), "float32")
    coords = jnp.asarray(RNG.uniform(-1, 7, size=(2, 5, 3)), "float32")
    for order in (0, 1):
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            _close(
                image.map_coordinates(x, coords, order, mode, 0.5),
                kimage.map_coordinates(x, coords, order, mode, 0.5),
            )
    with pytest.raises(ValueError, match="coordinates"):
        image.map_coordinates(x, coords[:1], 1)


@pytest.mark.parametrize("data_format", FORMATS)
def test_filters_match_keras(data_format):
    x = _images(data_format)
    _close(
        image.gaussian_blur(x, (3, 5), (1.0, 2.0), data_format),
        kimage.gaussian_blur(x, (3, 5), (1.0, 2.0), data_format),
    )
    _close(image.sobel_edges(x, data_format), kimage.sobel_edges(x, data_format), atol=1e-4)


def test_scale_and_translate_matches_keras():
    x = _images("channels_last")
    args = ((2, 6, 5, 3), jnp.array([0.7, 0.5]), jnp.array([0.5, 0.0]), (1, 2), "linear")
    _close(image.scale_and_translate(x, *args), kimage.scale_and_translate(x, *args))


@pytest.mark.parametrize("data_format", FORMATS)
def test_elastic_transform_is_seeded_and_keeps_shape(data_format):
    x = _images(data_format, shape=(2, 16, 16, 3))
    a = image.elastic_transform(x, alpha=5.0, sigma=2.0, seed=3, data_format=data_format)
    b = image.elastic_transform(x, alpha=5.0, sigma=2.0, seed=3, data_format=data_format)
    assert a.shape == x.shape and a.dtype == x.dtype
    _close(a, b)
    assert not np.allclose(np.asarray(a), np.asarray(x))
    still = image.elastic_transform(x, alpha=0.0, sigma=2.0, seed=3, data_format=data_format)
    _close(still, x, atol=1e-5)
