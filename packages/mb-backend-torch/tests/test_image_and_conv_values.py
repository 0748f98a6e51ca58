"""Image and conv values against independent references (SciPy / direct NumPy loops).

Tolerances: 1e-5 absolute for float32 results.
"""

import numpy as np
import pytest

from mb_backend_torch import core, image, nn

scipy_ndimage = pytest.importorskip("scipy.ndimage")

RNG = np.random.default_rng(2)

# jax/Keras mode names -> SciPy's.
_SCIPY_MODE = {
    "constant": "grid-constant",
    "nearest": "nearest",
    "wrap": "grid-wrap",
    "mirror": "mirror",
    "reflect": "reflect",
}


@pytest.mark.parametrize("mode", list(_SCIPY_MODE))
@pytest.mark.parametrize("order", [0, 1])
def test_map_coordinates_matches_scipy(mode, order):
    x = RNG.normal(size=(5, 6)).astype("float32")
    coords = RNG.uniform(-3, 9, size=(2, 4, 7)).astype("float32")
    if order == 0:
        coords = np.round(coords) + 0.25  # away from rounding ties
    got = core.convert_to_numpy(image.map_coordinates(x, coords, order, mode, 0.5))
    expected = scipy_ndimage.map_coordinates(
        x, coords, order=order, mode=_SCIPY_MODE[mode], cval=0.5
    )
    np.testing.assert_allclose(got, expected, atol=1e-5)


def test_affine_identity_and_translation():
    images = RNG.uniform(size=(1, 5, 6, 2)).astype("float32")
    identity = np.array([1, 0, 0, 0, 1, 0, 0, 0], "float32")
    out = core.convert_to_numpy(
        image.affine_transform(images, identity, data_format="channels_last")
    )
    np.testing.assert_allclose(out, images, atol=1e-6)
    shift = np.array([1, 0, 2, 0, 1, 0, 0, 0], "float32")  # output x reads input x + 2
    out = core.convert_to_numpy(image.affine_transform(images, shift, data_format="channels_last"))
    np.testing.assert_allclose(out[:, :, :4], images[:, :, 2:], atol=1e-6)
    np.testing.assert_allclose(out[:, :, 4:], 0.0)


def _conv2d_reference(x, k, stride, pad):
    # x (N, H, W, C), k (kh, kw, C, O); explicit zero padding ((top, bottom), (left, right)).
    x = np.pad(x, ((0, 0), pad[0], pad[1], (0, 0)))
    kh, kw, _, out_c = k.shape
    h = (x.shape[1] - kh) // stride + 1
    w = (x.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], h, w, out_c))
    for i in range(h):
        for j in range(w):
            patch = x[:, i * stride : i * stride + kh, j * stride : j * stride + kw, :]
            out[:, i, j] = np.einsum("nhwc,hwco->no", patch, k)
    return out


@pytest.mark.parametrize("stride", [1, 2])
def test_conv_same_padding_matches_reference(stride):
    x = RNG.normal(size=(2, 6, 7, 3)).astype("float32")
    k = RNG.normal(size=(4, 3, 3, 5)).astype("float32")
    got = core.convert_to_numpy(
        nn.conv(x, k, strides=stride, padding="same", data_format="channels_last")
    )
    pads = []
    for size, ksize in ((6, 4), (7, 3)):
        out = -(-size // stride)
        total = max(0, (out - 1) * stride + ksize - size)
        pads.append((total // 2, total - total // 2))
    np.testing.assert_allclose(got, _conv2d_reference(x, k, stride, pads), atol=1e-4)


def test_conv_transpose_inverts_shapes_like_keras():
    x = RNG.normal(size=(1, 5, 5, 2)).astype("float32")
    k = RNG.normal(size=(3, 3, 4, 2)).astype("float32")
    same = nn.conv_transpose(x, k, strides=2, padding="same", data_format="channels_last")
    valid = nn.conv_transpose(x, k, strides=2, padding="valid", data_format="channels_last")
    assert tuple(same.shape) == (1, 10, 10, 4)
    assert tuple(valid.shape) == (1, 11, 11, 4)


def test_average_pool_same_excludes_padding():
    x = np.ones((1, 5, 5, 1), "float32")
    out = core.convert_to_numpy(
        nn.average_pool(x, 2, strides=2, padding="same", data_format="channels_last")
    )
    np.testing.assert_allclose(out, np.ones((1, 3, 3, 1)))
