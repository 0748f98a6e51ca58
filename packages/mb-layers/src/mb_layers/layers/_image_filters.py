"""Random filter augmentations: `RandomSharpness` and `RandomGaussianBlur`."""

import numpy as np

from mb_layers._ops import ops
from mb_layers.layers._image_augmentation import (
    RandomImageLayer,
    TransformationOptional,
    factor_range,
    value_range_pair,
)
from mb_layers.layers._image_docs import image_doc


@image_doc("pixels", value_range=True)
class RandomSharpness(TransformationOptional, RandomImageLayer):
    """Sharpens or softens each image by a random amount during training.

    The image is blended with a 3x3 smoothing of itself (weights 1/13 around
    5/13, zero padding): ``x + (1 - 2u) * (smooth(x) - x)`` for a draw ``u`` of
    `factor`; ``u = 0.5`` keeps the image, 0 blurs it, 1 sharpens it.

    Args:
        factor: ``f`` in [0, 1] draws ``u`` from ``[0, f]``; a pair
            ``(low, high)`` from ``[low, high]``.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
        >>> np.allclose(np.asarray(RandomSharpness((0.5, 0.5))(images)), images)
        True
        >>> out = np.asarray(RandomSharpness(1.0, seed=1)(images))
        >>> out.shape, bool(out.min() >= 0 and out.max() <= 255)
        ((2, 4, 4, 3), True)
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1), "factor", "RandomSharpness")
        self.value_range = value_range_pair(value_range, "RandomSharpness")

    def augment(self, images):
        channels = images.shape[self._spatial_axes()[2]]
        taps = np.full((3, 3), 1.0 / 13.0)
        taps[1, 1] = 5.0 / 13.0
        kernel = np.tile(taps[:, :, None, None], (1, 1, channels, 1))
        kernel = ops.convert_to_tensor(kernel, dtype=self.compute_dtype)
        smooth = ops.depthwise_conv(
            images, kernel, strides=1, padding="same", data_format=self.data_format
        )
        amount = self._uniform((ops.shape(images)[0],), *self.factor)
        weight = self._per_image(
            ops.cast(ops.subtract(1.0, ops.multiply(amount, 2.0)), images.dtype)
        )
        sharpened = ops.add(images, ops.multiply(weight, ops.subtract(smooth, images)))
        return ops.clip(sharpened, *self.value_range)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


def _kernel_size(value):
    message = (
        f"RandomGaussianBlur `kernel_size` must be an odd int or two odd ints. Received: {value!r}."
    )
    if isinstance(value, (tuple, list)):
        if len(value) != 2 or value[0] % 2 == 0 or value[1] % 2 == 0:
            raise ValueError(message)
        return (int(value[0]), int(value[1]))
    if isinstance(value, (int, float)) and value % 2 == 1:
        return (int(value), int(value))
    raise ValueError(message)


@image_doc("pixels", value_range=True)
class RandomGaussianBlur(TransformationOptional, RandomImageLayer):
    """Blurs a random fraction of the images with a Gaussian of random width during training.

    Args:
        factor: the probability to blur an image: ``f`` in [0, 1] draws it from
            ``[0, f]``; a pair ``(low, high)`` from ``[low, high]``.
        kernel_size: an odd int, or two (width, height).
        sigma: the range of the Gaussian's standard deviation (one draw per call
            for x and one for y): ``s`` in [0, 1] draws from ``[0, s]``, a pair
            from its range.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
        >>> blur = RandomGaussianBlur(kernel_size=3, sigma=1.0, seed=1)
        >>> out = np.asarray(blur(images))
        >>> out.shape, bool(out.min() >= 0 and out.max() <= 255)
        ((2, 4, 4, 3), True)
        >>> np.array_equal(np.asarray(blur(images, training=False)), images)
        True
    """

    def __init__(
        self,
        factor=1.0,
        kernel_size=3,
        sigma=1.0,
        value_range=(0, 255),
        data_format=None,
        seed=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1), "factor", "RandomGaussianBlur")
        self.kernel_size = _kernel_size(kernel_size)
        self.sigma = factor_range(sigma, (0, 1), "sigma", "RandomGaussianBlur")
        self.value_range = list(value_range_pair(value_range, "RandomGaussianBlur"))

    def augment(self, images):
        batch = ops.shape(images)[0]
        probability = self._uniform((batch,), *self.factor)
        apply = self._per_image(ops.less(self._uniform((batch,)), probability))
        sigma = ops.add(self._uniform((2,), *self.sigma, dtype=self.compute_dtype), 1e-6)
        blurred = ops.image.gaussian_blur(
            images, kernel_size=self.kernel_size, sigma=sigma, data_format=self.data_format
        )
        return ops.clip(ops.where(apply, blurred, images), *self.value_range)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "kernel_size": self.kernel_size,
            "sigma": self.sigma,
            "value_range": self.value_range,
        }
