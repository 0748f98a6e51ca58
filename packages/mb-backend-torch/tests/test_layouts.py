"""Every conv, pool and image op gives the same numbers in channels_first as in channels_last
(the channels_first result, transposed, equals the channels_last one; tolerance 1e-5)."""

import numpy as np
import pytest

from mb_backend_torch import core, image, nn

RNG = np.random.default_rng(1)
IMAGES_2D = RNG.uniform(size=(2, 7, 9, 3)).astype("float32")  # NHWC


def _cf(x):
    return np.moveaxis(x, -1, 1)


def _np(x):
    return core.convert_to_numpy(x)


def _both(fn, x, *args, **kwargs):
    last = _np(fn(x, *args, data_format="channels_last", **kwargs))
    first = _np(fn(_cf(x), *args, data_format="channels_first", **kwargs))
    return last, first


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides", [1, 2])
def test_conv_layouts_agree(rank, padding, strides):
    x = RNG.normal(size=(2, *([8] * rank), 3)).astype("float32")
    kernel = RNG.normal(size=(*([3] * rank), 3, 4)).astype("float32")
    last, first = _both(nn.conv, x, kernel, strides=strides, padding=padding)
    np.testing.assert_allclose(np.moveaxis(first, 1, -1), last, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_depthwise_separable_transpose_layouts_agree(padding):
    x = RNG.normal(size=(2, 7, 6, 3)).astype("float32")
    dw = RNG.normal(size=(3, 3, 3, 2)).astype("float32")
    pw = RNG.normal(size=(1, 1, 6, 4)).astype("float32")
    for fn, args in (
        (nn.depthwise_conv, (dw,)),
        (nn.separable_conv, (dw, pw)),
        (nn.conv_transpose, (RNG.normal(size=(3, 3, 5, 3)).astype("float32"),)),
    ):
        last, first = _both(fn, x, *args, strides=2, padding=padding)
        np.testing.assert_allclose(np.moveaxis(first, 1, -1), last, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn", [nn.max_pool, nn.average_pool])
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_pool_layouts_agree(fn, padding):
    last, first = _both(fn, IMAGES_2D, 3, strides=2, padding=padding)
    np.testing.assert_allclose(np.moveaxis(first, 1, -1), last, rtol=1e-6)


@pytest.mark.parametrize("fn", [nn.adaptive_average_pool, nn.adaptive_max_pool])
def test_adaptive_pool_layouts_agree(fn):
    last, first = _both(fn, IMAGES_2D, (3, 4))
    np.testing.assert_allclose(np.moveaxis(first, 1, -1), last, rtol=1e-6)


def test_depth_space_round_trip_and_channels_first_is_pixel_shuffle():
    # As in Keras (jax and torch): channels_first uses torch's pixel-shuffle channel order.
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(1, 4, 6, 8)).astype("float32")
    packed = _np(nn.space_to_depth(x, 2, data_format="channels_last"))
    assert packed.shape == (1, 2, 3, 32)
    np.testing.assert_allclose(_np(nn.depth_to_space(packed, 2, data_format="channels_last")), x)
    x_cf = _cf(x)
    packed_cf = _np(nn.space_to_depth(x_cf, 2, data_format="channels_first"))
    np.testing.assert_allclose(
        packed_cf, torch.nn.functional.pixel_unshuffle(torch.from_numpy(x_cf), 2).numpy()
    )
    np.testing.assert_allclose(
        _np(nn.depth_to_space(packed_cf, 2, data_format="channels_first")), x_cf
    )


_IMAGE_OPS = [
    (image.rgb_to_grayscale, (), {}),
    (image.rgb_to_hsv, (), {}),
    (image.hsv_to_rgb, (), {}),
    (image.resize, ((5, 4),), {}),
    (image.resize, ((14, 11),), {"interpolation": "bicubic"}),
    (image.resize, ((4, 4),), {"interpolation": "nearest", "crop_to_aspect_ratio": True}),
    (image.resize, ((4, 8),), {"interpolation": "lanczos3", "pad_to_aspect_ratio": True}),
    (image.gaussian_blur, ((3, 5), (1.0, 2.0)), {}),
    (image.affine_transform, (np.array([1.0, 0.2, -1.0, 0.1, 0.9, 2.0, 0.0, 0.0], "float32"),), {}),
    (
        image.perspective_transform,
        (
            np.array([[0, 0], [8, 0], [0, 6], [8, 6]], "float32"),
            np.array([[1, 0], [7, 1], [0, 5], [8, 6]], "float32"),
        ),
        {},
    ),
    (image.elastic_transform, (), {"seed": 3}),
]


@pytest.mark.parametrize(
    ("fn", "args", "kwargs"), _IMAGE_OPS, ids=lambda v: getattr(v, "__name__", "")
)
def test_image_op_layouts_agree(fn, args, kwargs):
    last, first = _both(fn, IMAGES_2D, *args, **kwargs)
    np.testing.assert_allclose(np.moveaxis(first, 1, -1), last, rtol=1e-5, atol=1e-5)


def test_sobel_layouts_agree():
    last, first = _both(image.sobel_edges, IMAGES_2D)
    np.testing.assert_allclose(np.moveaxis(first, 1, -2), last, rtol=1e-5, atol=1e-5)
