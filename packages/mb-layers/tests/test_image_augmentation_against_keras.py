"""Random image augmentations against Keras 3, where a factor range collapsed to one value
(or a probability of 0 or 1) fixes the transformation.

Keras runs the configs mb writes (one subprocess for all cases) with
``training=True`` on the same images.
"""

import numpy as np

from mb_layers import layers
from mb_layers.testing import compare_with_keras

RNG = np.random.default_rng(0)
IMAGES = (RNG.random((2, 7, 9, 3)) * 255).astype("float32")
UNIT = RNG.random((2, 6, 5, 3)).astype("float32")
TRAIN = {"training": True}


def _affine_cases():
    cases = []
    for fill_mode in ("reflect", "wrap", "constant", "nearest"):
        for interpolation in ("bilinear", "nearest"):
            common = {"fill_mode": fill_mode, "interpolation": interpolation, "fill_value": 9.0}
            cases += [
                layers.RandomRotation((0.1, 0.1), **common),
                layers.RandomRotation((-0.3, -0.3), **common),
                layers.RandomTranslation((0.2, 0.2), (-0.3, -0.3), **common),
                layers.RandomZoom((0.3, 0.3), (-0.2, -0.2), **common),
                layers.RandomZoom((-0.4, -0.4), **common),
            ]
    return [(layer, IMAGES, TRAIN) for layer in cases]


def _other_cases():
    on_255 = [
        layers.RandomCrop(7, 4),  # one side equal: Keras crops the center
        layers.RandomCrop(3, 9),
        layers.RandomGrayscale(1.0),
        layers.RandomSaturation((0.7, 0.7)),
        layers.RandomColorDegeneration((0.4, 0.4)),
        layers.RandomInvert((1.0, 1.0)),
        layers.RandomPosterization((3, 3)),
        layers.RandomSharpness((0.8, 0.8)),
        layers.RandomSharpness((0.1, 0.1)),
        layers.RandomGaussianBlur((1.0, 1.0), kernel_size=(5, 3), sigma=(0.6, 0.6)),
        layers.RandomErasing(factor=(0.0, 0.0)),
        layers.RandomPerspective(factor=(1.0, 1.0), scale=0.0, interpolation="nearest"),
        layers.RandomElasticTransform(factor=0.0),
        layers.RandomColorJitter(saturation_factor=(0.7, 0.7)),
    ]
    on_unit = [
        layers.RandomSaturation((0.2, 0.2), value_range=(0, 1)),
        layers.RandomColorDegeneration((0.9, 0.9), value_range=(0, 1)),
        layers.RandomInvert((1.0, 1.0), value_range=(0, 1)),
        layers.RandomPosterization((5, 5), value_range=(0, 1)),
        layers.RandomHue(0.0, value_range=(0, 1)),
    ]
    cases = [(layer, IMAGES, TRAIN) for layer in on_255]
    return cases + [(layer, UNIT, TRAIN) for layer in on_unit]


def test_fixed_augmentations_match_keras():
    compare_with_keras(_affine_cases() + _other_cases(), atol=2e-3, rtol=1e-4)


def test_fixed_augmentations_in_channels_first_match_keras():
    images = np.transpose(IMAGES, (0, 3, 1, 2))
    cases = [
        layers.RandomRotation((0.1, 0.1), data_format="channels_first"),
        layers.RandomZoom((0.3, 0.3), (-0.2, -0.2), data_format="channels_first"),
        layers.RandomSaturation((0.7, 0.7), data_format="channels_first"),
        layers.RandomSharpness((0.8, 0.8), data_format="channels_first"),
        layers.RandomCrop(7, 4, data_format="channels_first"),
    ]
    compare_with_keras([(layer, images, TRAIN) for layer in cases], atol=2e-3, rtol=1e-4)
