"""image: every op against Keras 3 on TensorFlow, in channels_last and channels_first.

Tolerance: 1e-5 (1e-4 for resampling) on float32 images in [0, 1].
"""

import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import numpy as np
import pytest
import tensorflow as tf
from _helpers import assert_close

from mb_backend_tensorflow import image

RNG = np.random.default_rng(2)
IMAGES = RNG.uniform(size=(2, 8, 10, 3)).astype("float32")


def _first(x):
    return np.moveaxis(np.asarray(x), -1, -3)


def _check_layouts(name, args=(), kwargs=None, atol=1e-5, images=IMAGES):
    kwargs = kwargs or {}
    ref = np.asarray(
        getattr(keras.ops.image, name)(
            tf.constant(images), *args, data_format="channels_last", **kwargs
        )
    )
    ours = getattr(image, name)(images, *args, data_format="channels_last", **kwargs)
    assert_close(ours, ref, atol=atol)
    ours_first = getattr(image, name)(_first(images), *args, data_format="channels_first", **kwargs)
    assert_close(ours_first, _first(ref), atol=atol)


@pytest.mark.parametrize("name", ["rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb"])
def test_color_conversions(name):
    _check_layouts(name)
    _check_layouts(name, images=IMAGES[0])


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(interpolation="bilinear"),
        dict(interpolation="nearest"),
        dict(interpolation="bicubic", antialias=True),
        dict(interpolation="area"),
        dict(interpolation="lanczos3"),
        dict(crop_to_aspect_ratio=True),
        dict(pad_to_aspect_ratio=True, fill_value=0.5),
    ],
)
def test_resize(kwargs):
    _check_layouts("resize", ((5, 5),), kwargs, atol=1e-4)


def test_affine_and_perspective_transforms():
    transform = np.array([1.1, 0.2, -1.0, -0.1, 0.9, 0.5, 0.0, 0.0], "float32")
    for mode in ("constant", "nearest", "wrap", "reflect"):
        for interpolation in ("nearest", "bilinear"):
            _check_layouts(
                "affine_transform",
                (transform,),
                dict(interpolation=interpolation, fill_mode=mode),
                atol=1e-4,
            )
    start = np.array([[0, 0], [9, 0], [0, 7], [9, 7]], "float32")
    end = np.array([[1, 0], [8, 1], [0, 6], [9, 7]], "float32")
    _check_layouts("perspective_transform", (start, end), atol=1e-4)
    h = np.asarray(image.compute_homography_matrix(start[None], end[None]))[0]
    for (sx, sy), (ex, ey) in zip(start, end, strict=True):  # end points map onto start points
        denom = h[6] * ex + h[7] * ey + 1
        assert_close(
            [(h[0] * ex + h[1] * ey + h[2]) / denom, (h[3] * ex + h[4] * ey + h[5]) / denom],
            [sx, sy],
            atol=1e-3,
        )


def _fix_index(i, n, mode):
    if mode in ("constant", "nearest"):
        return min(max(i, 0), n - 1)
    if mode == "wrap":
        return i % n
    if mode == "mirror":
        i = abs(i) % (2 * (n - 1))
        return 2 * (n - 1) - i if i >= n else i
    i = i % (2 * n)
    return 2 * n - 1 - i if i >= n else i


def _numpy_map_coordinates(x, coords, order, mode, fill):
    """scipy.ndimage's modes applied per interpolation tap (as jax.scipy does)."""
    out = np.zeros(coords.shape[1:])
    for pos in np.ndindex(coords.shape[1:]):
        c = coords[(slice(None), *pos)]
        if order == 0:
            taps = [[(int(np.round(v)), 1.0)] for v in c]
        else:
            taps = [
                [(int(np.floor(v)), 1 - (v - np.floor(v))), (int(np.floor(v)) + 1, v - np.floor(v))]
                for v in c
            ]
        total = 0.0
        for (i, wi), (j, wj) in [(a, b) for a in taps[0] for b in taps[1]]:
            inside = 0 <= i < x.shape[0] and 0 <= j < x.shape[1]
            value = x[_fix_index(i, x.shape[0], mode), _fix_index(j, x.shape[1], mode)]
            if mode == "constant" and not inside:
                value = fill
            total += wi * wj * value
        out[pos] = total
    return out


@pytest.mark.parametrize("mode", ["constant", "nearest", "wrap", "mirror", "reflect"])
@pytest.mark.parametrize("order", [0, 1])
def test_map_coordinates(mode, order):
    x = RNG.uniform(size=(6, 7)).astype("float32")
    coords = RNG.uniform(-9, 15, size=(2, 4, 5)).astype("float32")
    ref = _numpy_map_coordinates(x.astype("float64"), coords.astype("float64"), order, mode, 0.5)
    assert_close(image.map_coordinates(x, coords, order, mode, 0.5), ref, atol=1e-5)
    if mode in ("constant", "nearest", "wrap"):
        keras_ref = keras.ops.image.map_coordinates(
            x, coords, order, fill_mode=mode, fill_value=0.5
        )
        assert_close(image.map_coordinates(x, coords, order, mode, 0.5), keras_ref, atol=1e-5)


def test_gaussian_blur_and_sobel_edges():
    _check_layouts("gaussian_blur", (), dict(kernel_size=(5, 5), sigma=(1.5, 1.5)))
    ref = np.asarray(keras.ops.image.sobel_edges(tf.constant(IMAGES), data_format="channels_last"))
    assert_close(image.sobel_edges(IMAGES, data_format="channels_last"), ref, atol=1e-5)
    first = image.sobel_edges(_first(IMAGES), data_format="channels_first")
    assert_close(first, np.moveaxis(ref, 3, 1), atol=1e-5)


def test_scale_and_translate_matches_keras():
    for method in ("linear", "cubic", "lanczos3"):
        args = ((2, 12, 15, 3), (1.5, 1.5), (0.5, -1.0), (1, 2), method)
        assert_close(
            image.scale_and_translate(IMAGES, *args),
            keras.ops.image.scale_and_translate(IMAGES, *args),
            atol=1e-4,
        )


def test_elastic_transform_is_seeded_and_identity_without_displacement():
    a = image.elastic_transform(IMAGES, alpha=5.0, sigma=2.0, seed=3, data_format="channels_last")
    b = image.elastic_transform(IMAGES, alpha=5.0, sigma=2.0, seed=3, data_format="channels_last")
    np.testing.assert_array_equal(a, b)
    assert tuple(a.shape) == IMAGES.shape and not np.allclose(a, IMAGES)
    same = image.elastic_transform(
        _first(IMAGES), alpha=0.0, sigma=2.0, seed=3, data_format="channels_first"
    )
    assert_close(same, _first(IMAGES))


def test_errors_say_what_was_received():
    with pytest.raises(ValueError, match="rank 3"):
        image.resize(IMAGES[0, 0], (2, 2))
    with pytest.raises(ValueError, match="interpolation"):
        image.resize(IMAGES, (2, 2), interpolation="magic")
    with pytest.raises(NotImplementedError, match="order"):
        image.map_coordinates(IMAGES[0, ..., 0], np.zeros((2, 3, 3)), 3)
