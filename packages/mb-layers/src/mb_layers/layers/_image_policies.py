"""Augmentation policies built from the other image layers: `RandAugment` and `AugMix`.

Both pick their operations with draws from their `SeedGenerator` (not Python's
`random`), so a compiled function picks anew at each call. As Keras 3 does for
`RandAugment`, every candidate operation is computed and the drawn one is
selected with ``where``: the choice can then live inside a traced function on
every backend, at the price of computing the candidates.
"""

from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._image_affine import RandomRotation, RandomShear, RandomTranslation
from mb_layers.layers._image_augmentation import factor_range, value_range_pair
from mb_layers.layers._image_color import (
    RandomBrightness,
    RandomColorDegeneration,
    RandomContrast,
    RandomPosterization,
)
from mb_layers.layers._image_data import RandomImageDataLayer
from mb_layers.layers._image_filters import RandomSharpness
from mb_layers.layers._image_levels import AutoContrast, Equalization, Solarization

_GEOMETRIC = ("random_shear", "random_translation", "random_rotation")
_LEVELS = ("random_posterization", "solarization", "auto_contrast", "equalization")
_COLOR = ("random_brightness", "random_color_degeneration", "random_contrast", "random_sharpness")


class _Policy(RandomImageDataLayer):
    """Holds the candidate layers (Keras's attribute names) and applies a drawn one."""

    def __init__(
        self, value_range, factor, interpolation, seed, data_format, color_ops=True, **kwargs
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        name = type(self).__name__
        self.value_range = value_range
        self.factor = factor_range(factor, (0, 1), "factor", name)
        self.interpolation = interpolation
        low_high = value_range_pair(value_range, name)
        common = {"seed": seed, "data_format": self.data_format}
        colors = {**common, "value_range": low_high}
        self.random_shear = RandomShear(
            self.factor, self.factor, interpolation=interpolation, **common
        )
        self.random_translation = RandomTranslation(
            self.factor, self.factor, interpolation=interpolation, **common
        )
        self.random_rotation = RandomRotation(self.factor, interpolation=interpolation, **common)
        self.random_posterization = RandomPosterization(max(1, int(8 * self.factor[1])), **colors)
        self.solarization = Solarization(self.factor, self.factor, **colors)
        self.auto_contrast = AutoContrast(value_range=low_high, data_format=self.data_format)
        self.equalization = Equalization(value_range=low_high, data_format=self.data_format)
        if not color_ops:
            return
        self.random_brightness = RandomBrightness(self.factor, **colors)
        self.random_color_degeneration = RandomColorDegeneration(self.factor, **colors)
        self.random_contrast = RandomContrast(self.factor, **colors)
        self.random_sharpness = RandomSharpness(self.factor, **colors)

    def _apply_one_of(self, names, index, images):
        """The images after the layer ``names[index]`` (``index == len(names)``: none)."""
        out = images
        for k, name in enumerate(names):
            candidate = ops.cast(getattr(self, name)(images, training=True), images.dtype)
            out = ops.where(ops.equal(index, k), candidate, out)
        return out

    def get_config(self):
        return {
            **super().get_config(),
            "value_range": self.value_range,
            "factor": self.factor,
            "interpolation": self.interpolation,
        }


class RandAugment(_Policy):
    """RandAugment: `num_ops` operations, each drawn from 11 at random, applied in training.

    The candidates are shear, translation, rotation, brightness, color
    degeneration, contrast, sharpness, posterization, solarization,
    auto-contrast and equalization, all with the strength `factor`. One
    operation is drawn per step for the whole batch. In inference the images
    pass through (cast to the compute dtype).

    Args:
        value_range: the range of pixel values.
        num_ops: how many operations to apply in sequence.
        factor: the strength of the operations: ``f`` in [0, 1] means ``(0, f)``.
        interpolation: for the geometric operations, ``"bilinear"`` or ``"nearest"``.
        seed, data_format: as the other image layers.

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)).astype("float32")
        >>> out = np.asarray(RandAugment(seed=1)(images, training=True))
        >>> out.shape, bool(0 <= out.min() and out.max() <= 255)
        ((2, 8, 8, 3), True)
    """

    _OPERATIONS = (*_GEOMETRIC, *_COLOR, *_LEVELS)  # Keras's order
    _BOXES_SUPPORTED = False
    _BOXES_REASON = "mb's shear, translation and rotation layers do not transform boxes yet"

    def __init__(
        self,
        value_range=(0, 255),
        num_ops=2,
        factor=0.5,
        interpolation="bilinear",
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(value_range, factor, interpolation, seed, data_format, **kwargs)
        self.num_ops = num_ops

    def draw(self, images):
        count = len(self._OPERATIONS)
        return random_ops.randint((self.num_ops,), 0, count, seed=self._seed())

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        for step in range(self.num_ops):
            images = self._apply_one_of(self._OPERATIONS, transformation[step], images)
        return images

    def get_config(self):
        return {**super().get_config(), "num_ops": self.num_ops}


class AugMix(_Policy):
    """AugMix: a random mix of `num_chains` augmentation chains, mixed with the image.

    In training, each chain applies up to `chain_depth` operations (each step
    draws one of the operations or none), the chains are averaged with
    Dirichlet(`alpha`) weights, and the result is blended with the original
    image by a Beta(`alpha`, `alpha`) weight, then clipped to `value_range`.
    The operations are shear, translation, rotation, posterization,
    solarization, auto-contrast and equalization, plus brightness, color
    degeneration, contrast and sharpness when `all_ops`. Labels and boxes pass
    through unchanged (as in Keras).

    Args:
        value_range: the range of pixel values.
        num_chains: the number of chains mixed.
        chain_depth: the number of steps of each chain.
        factor: the strength of the operations: ``f`` in [0, 1] means ``(0, f)``.
        alpha: the parameter of the Dirichlet and Beta draws.
        all_ops: whether to include the four color operations.
        interpolation, seed, data_format: as `RandAugment`.

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)).astype("float32")
        >>> out = np.asarray(AugMix(seed=1)(images, training=True))
        >>> out.shape, bool(0 <= out.min() and out.max() <= 255)
        ((2, 8, 8, 3), True)
    """

    def __init__(
        self,
        value_range=(0, 255),
        num_chains=3,
        chain_depth=3,
        factor=0.3,
        alpha=1.0,
        all_ops=True,
        interpolation="bilinear",
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(
            value_range, factor, interpolation, seed, data_format, color_ops=all_ops, **kwargs
        )
        self.num_chains = num_chains
        self.chain_depth = chain_depth
        self.alpha = alpha
        self.all_ops = all_ops
        self._operations = (*_GEOMETRIC, *_LEVELS) + (_COLOR if all_ops else ())

    def draw(self, images):
        gammas = random_ops.gamma((self.num_chains,), self.alpha, seed=self._seed())
        chain_weights = ops.divide(gammas, ops.sum(gammas))
        blend = random_ops.beta((), self.alpha, self.alpha, seed=self._seed())
        # One more choice than there are operations: the last one is "no operation".
        choices = random_ops.randint(
            (self.num_chains, self.chain_depth),
            0,
            len(self._operations) + 1,
            seed=self._seed(),
        )
        return {"chain_weights": chain_weights, "blend": blend, "choices": choices}

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        weights = ops.cast(transformation["chain_weights"], images.dtype)
        blend = ops.cast(transformation["blend"], images.dtype)
        mixed = ops.zeros_like(images)
        for chain in range(self.num_chains):
            augmented = images
            for step in range(self.chain_depth):
                choice = transformation["choices"][chain, step]
                augmented = self._apply_one_of(self._operations, choice, augmented)
            mixed = ops.add(mixed, ops.multiply(augmented, weights[chain]))
        out = ops.add(ops.multiply(blend, images), ops.multiply(ops.subtract(1.0, blend), mixed))
        low, high = value_range_pair(self.value_range, "AugMix")
        return ops.clip(out, low, high)

    def get_config(self):
        return {
            **super().get_config(),
            "num_chains": self.num_chains,
            "chain_depth": self.chain_depth,
            "alpha": self.alpha,
            "all_ops": self.all_ops,
        }
