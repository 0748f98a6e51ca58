"""Random image augmentations: what holds for every draw, reproducibility, formats, errors.

Numbers against Keras 3 (fixed draws) are in test_image_augmentation_against_keras.py.
"""

import colorsys

import numpy as np
import pytest

from mb_layers import layers
from mb_layers.testing import run_layer_test
from mb_ops import ops

RNG = np.random.default_rng(0)
IMAGES = (RNG.random((4, 8, 8, 3)) * 255).astype("float32")

# Each augmentation with arguments that make it change most images.
AUGMENTATIONS = [
    (layers.RandomCrop, {"height": 5, "width": 6}),
    (layers.RandomRotation, {"factor": 0.2}),
    (layers.RandomTranslation, {"height_factor": 0.3, "width_factor": 0.3}),
    (layers.RandomZoom, {"height_factor": 0.4}),
    (layers.RandomShear, {"x_factor": 0.4, "y_factor": 0.4}),
    (layers.RandomErasing, {"factor": (1.0, 1.0), "scale": (0.3, 0.6)}),
    (layers.RandomGrayscale, {"factor": 1.0}),
    (layers.RandomHue, {"factor": (0.5, 0.9)}),
    (layers.RandomSaturation, {"factor": (0.8, 0.9)}),
    (layers.RandomColorJitter, {"saturation_factor": (0.8, 0.9), "hue_factor": 0.5}),
    (layers.RandomColorDegeneration, {"factor": (0.5, 1.0)}),
    (layers.RandomSharpness, {"factor": (0.9, 1.0)}),
    (layers.RandomPosterization, {"factor": (2, 4)}),
    (layers.RandomInvert, {"factor": (1.0, 1.0)}),
    (layers.RandomGaussianBlur, {"factor": (1.0, 1.0)}),
    (layers.RandomPerspective, {"factor": (1.0, 1.0), "scale": 0.5}),
    (layers.RandomElasticTransform, {"factor": (1.0, 1.0), "scale": (0.5, 1.0)}),
]
IDS = [cls.__name__ for cls, _ in AUGMENTATIONS]


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


@pytest.mark.parametrize(("cls", "kwargs"), AUGMENTATIONS, ids=IDS)
def test_augmentation_through_the_harness(cls, kwargs):
    shape = (4, 5, 6, 3) if cls is layers.RandomCrop else IMAGES.shape
    run_layer_test(
        cls,
        {**kwargs, "seed": 1},
        input_shape=(None, 8, 8, 3),
        input_data=IMAGES,
        call_kwargs={"training": True},
        expected_output_shape=shape,
        expected_num_trainable_weights=0,
        run_mixed_precision_check=True,
    )


@pytest.mark.parametrize(("cls", "kwargs"), AUGMENTATIONS, ids=IDS)
def test_inference_passes_images_through_and_training_changes_them(cls, kwargs):
    layer = cls(**kwargs, seed=3)
    if cls is not layers.RandomCrop:
        np.testing.assert_array_equal(_np(layer(IMAGES, training=False)), IMAGES)
    out = _np(layer(IMAGES, training=True))
    assert out.shape[0] == 4 and np.isfinite(out).all()
    assert out.shape != IMAGES.shape or not np.allclose(out, IMAGES, atol=1e-3)
    again = _np(cls(**kwargs, seed=3)(IMAGES, training=True))
    np.testing.assert_array_equal(again, out)  # same seed, same draws
    if cls not in (layers.RandomGrayscale, layers.RandomInvert):  # these apply to all images
        later = [_np(layer(IMAGES, training=True)) for _ in range(3)]
        assert not all(np.array_equal(x, out) for x in later)  # the draws move on


@pytest.mark.parametrize(
    "layer",
    [
        layers.RandomRotation(0.0),
        layers.RandomTranslation(0.0, 0.0),
        layers.RandomZoom(0.0),
        layers.RandomShear(0.0, 0.0),
        layers.RandomHue(0.0),
        layers.RandomColorDegeneration(0.0),
        layers.RandomSharpness((0.5, 0.5)),
        layers.RandomErasing(factor=0.0),
        layers.RandomGaussianBlur(factor=0.0),
        layers.RandomPerspective(factor=0.0),
        layers.RandomElasticTransform(scale=0.0),
        layers.RandomInvert(factor=0.0),
        layers.RandomGrayscale(factor=0.0),
    ],
    ids=lambda layer: type(layer).__name__,
)
def test_factor_zero_is_the_identity(layer):
    np.testing.assert_allclose(_np(layer(IMAGES, training=True)), IMAGES, atol=1e-3)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize(("turn", "k"), [(0.25, 1), (0.5, 2), (-0.25, -1)])
def test_rotation_by_quarter_turns_is_rot90(data_format, turn, k):
    axes = (1, 2) if data_format == "channels_last" else (2, 3)
    images = IMAGES if data_format == "channels_last" else np.transpose(IMAGES, (0, 3, 1, 2))
    layer = layers.RandomRotation(
        (turn, turn), interpolation="nearest", data_format=data_format, seed=0
    )
    np.testing.assert_array_equal(_np(layer(images)), np.rot90(images, k=k, axes=axes))


def test_translation_by_whole_pixels_shifts_and_fills():
    layer = layers.RandomTranslation(
        (0.25, 0.25), (-0.125, -0.125), fill_mode="constant", fill_value=-1.0
    )
    out = _np(layer(IMAGES))  # 2 rows down, 1 column left
    np.testing.assert_allclose(out[:, 2:, :-1], IMAGES[:, :-2, 1:], atol=1e-4)
    assert (out[:, :2] == -1).all() and (out[:, :, -1] == -1).all()


def test_zoom_out_by_two_samples_every_other_pixel():
    images = np.arange(9 * 9, dtype="float32").reshape(1, 9, 9, 1)
    out = _np(layers.RandomZoom((1.0, 1.0), fill_mode="constant")(images))
    np.testing.assert_array_equal(out[0, 2:7, 2:7, 0], images[0, ::2, ::2, 0])


def test_shear_samples_the_input_along_one_of_two_slants():
    layer = layers.RandomShear((0.5, 0.5), 0.0, "nearest", fill_mode="constant", seed=4)
    out = _np(layer(IMAGES))
    for image, result in zip(IMAGES, out, strict=True):
        candidates = [
            _np(ops.image.affine_transform(image[None], [1, s, 0, 0, 1, 0, 0, 0], "nearest"))
            for s in (0.5, -0.5)
        ]
        assert any(np.allclose(result, c[0], atol=1e-4) for c in candidates)


def test_random_crop_windows_lie_inside_the_image():
    layer = layers.RandomCrop(5, 4, seed=2)
    seen = set()
    for _ in range(12):
        out = _np(layer(IMAGES))
        windows = [
            (t, s)
            for t in range(4)
            for s in range(5)
            if np.array_equal(out, IMAGES[:, t : t + 5, s : s + 4])
        ]
        assert len(windows) == 1
        seen.add(windows[0])
    assert len(seen) > 3


def test_random_crop_in_inference_resizes_the_centered_window():
    out = _np(layers.RandomCrop(4, 8)(IMAGES, training=False))  # aspect 1:2 -> rows 2..5
    expected = _np(ops.image.resize(IMAGES[:, 2:6], (4, 8)))
    np.testing.assert_allclose(out, expected, atol=1e-4)
    assert out.shape == (4, 4, 8, 3)


def test_erasing_fills_one_rectangle_per_image():
    out = _np(layers.RandomErasing((1.0, 1.0), scale=(0.4, 0.6), fill_value=7.0, seed=5)(IMAGES))
    for image, result in zip(IMAGES, out, strict=True):
        changed = (result != image).any(axis=-1)
        rows, cols = np.nonzero(changed)
        assert changed.sum() == (np.ptp(rows) + 1) * (np.ptp(cols) + 1)
        assert (result[changed] == 7.0).all()


def test_hue_shift_matches_colorsys():
    images = RNG.random((3, 4, 4, 3)).astype("float32")
    out = _np(layers.RandomHue((0.6, 0.6), value_range=(0, 1), seed=1)(images))
    for image, result in zip(images, out, strict=True):
        candidates = []
        for delta in (0.3, -0.3):
            shifted = [
                colorsys.hsv_to_rgb((h + delta) % 1.0, s, v)
                for h, s, v in (colorsys.rgb_to_hsv(*p) for p in image.reshape(-1, 3))
            ]
            candidates.append(np.asarray(shifted).reshape(image.shape))
        assert any(np.allclose(result, c, atol=1e-4) for c in candidates)


def test_grayscale_and_posterization_outputs():
    gray = _np(layers.RandomGrayscale(1.0)(IMAGES))
    expected = IMAGES @ np.array([0.2989, 0.5870, 0.1140], "float32")
    np.testing.assert_allclose(gray, np.repeat(expected[..., None], 3, -1), rtol=1e-5)
    levels = np.floor(IMAGES)
    poster = _np(layers.RandomPosterization((2, 2))(levels))
    np.testing.assert_array_equal(poster, np.floor(levels / 64) * 64)


@pytest.mark.parametrize(("cls", "kwargs"), AUGMENTATIONS, ids=IDS)
def test_channels_first_gives_the_same_images(cls, kwargs):
    if cls is layers.RandomErasing:
        kwargs = {**kwargs, "fill_value": 3.0}  # noise would be drawn in another layout
    last = _np(cls(**kwargs, seed=6, data_format="channels_last")(IMAGES))
    first = cls(**kwargs, seed=6, data_format="channels_first")
    got = _np(first(np.transpose(IMAGES, (0, 3, 1, 2))))
    np.testing.assert_allclose(np.transpose(got, (0, 2, 3, 1)), last, atol=1e-3)


@pytest.mark.parametrize(("cls", "kwargs"), AUGMENTATIONS, ids=IDS)
def test_unbatched_images_are_accepted(cls, kwargs):
    out = _np(cls(**kwargs, seed=6)(IMAGES[0]))
    assert out.shape == ((5, 6, 3) if cls is layers.RandomCrop else IMAGES[0].shape)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: layers.RandomRotation(1.5), ValueError, "factor"),
        (lambda: layers.RandomRotation(0.1, fill_mode="mirror"), NotImplementedError, "fill_mode"),
        (lambda: layers.RandomZoom(-1.0), ValueError, "height_factor"),
        (lambda: layers.RandomTranslation(0.1, (0.1, 0.2, 0.3)), ValueError, "width_factor"),
        (lambda: layers.RandomShear(-0.2), ValueError, "x_factor"),
        (lambda: layers.RandomHue(0.1, value_range=255), ValueError, "value_range"),
        (lambda: layers.RandomGaussianBlur(kernel_size=4), ValueError, "kernel_size"),
        (lambda: layers.RandomErasing(fill_value=[1, 2]), ValueError, "fill_value"),
        (lambda: layers.RandomGrayscale(2.0), ValueError, "factor"),
    ],
)
def test_bad_arguments_say_what_is_expected(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_images_of_the_wrong_rank_are_refused():
    with pytest.raises(ValueError, match="rank 3"):
        layers.RandomRotation(0.1)(IMAGES[None])


@pytest.mark.parametrize(
    ("cls", "factor", "allowed"),
    [
        (layers.RandomContrast, 2.0, r"\[0, 1\]"),
        (layers.RandomContrast, -0.5, r"\[0, 1\]"),
        (layers.RandomBrightness, 2.0, r"\[-1, 1\]"),
    ],
)
def test_a_single_factor_out_of_range_is_refused_as_keras_does(cls, factor, allowed):
    with pytest.raises(ValueError, match=rf"{cls.__name__}.*range {allowed}.*factor={factor}"):
        cls(factor)
    cls((0.1, 0.5))  # a pair is checked when drawn, as before


def test_auto_contrast_leaves_a_constant_channel_as_it_is_without_dividing_by_zero():
    # Keras's result (its NaN replaced by the input); pytest turns a RuntimeWarning into
    # an error, so a division by zero on the way fails this test.
    images = np.stack([np.full((4, 4), 7.0), np.arange(16.0).reshape(4, 4)], axis=-1)[None]
    out = np.asarray(layers.AutoContrast()(images.astype("float32")))
    np.testing.assert_array_equal(out[..., 0], images[..., 0])
    np.testing.assert_allclose(out[..., 1], images[..., 1] * 17.0, rtol=1e-5)
