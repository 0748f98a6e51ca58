"""Random color augmentations: grayscale, hue, saturation, degeneration, inversion, posterization.

Each follows Keras 3's layer of the same name: its factor rules, its draws per
image and its formula (for example, `RandomSaturation` clips the saturation
channel to `value_range`, as Keras does).
"""

from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._image_augmentation import (
    RandomImageLayer,
    TransformationOptional,
    factor_range,
    rescale,
    value_range_pair,
)
from mb_layers.layers._image_data import drawing_from
from mb_layers.layers._image_docs import image_doc
from mb_ops import config


def _factor_pair(factor, name):
    if isinstance(factor, (int, float)):
        return (-abs(factor), abs(factor))
    low, high = factor
    if low > high:
        raise ValueError(f"{name} `factor` (low, high) needs low <= high. Received: {factor!r}.")
    return (low, high)


def _plain(value):
    return value.tolist() if hasattr(value, "tolist") else value


class _ValueLayer(RandomImageLayer):
    _FACTOR_RANGE = (-1.0, 1.0)  # what a single-number `factor` may be (Keras's check)

    # Keras 3's signature: `data_format` is taken as a keyword (by its base layer).
    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        data_format = kwargs.pop("data_format", None)
        low, high = self._FACTOR_RANGE
        if isinstance(factor, (int, float)) and not low <= factor <= high:
            raise ValueError(
                f"{type(self).__name__}: the `factor` argument should be a number (or a "
                f"list of two numbers) in the range [{low:g}, {high:g}]. Received: "
                f"factor={factor!r}."
            )
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor
        self.value_range = tuple(value_range)

    def _draw_per_image(self, images, low, high):
        shape = (ops.shape(images)[0], 1, 1, 1)
        return self._uniform(shape, low, high, dtype=self.compute_dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": _plain(self.factor),
            "value_range": self.value_range,
        }


@image_doc("pixels", data_format=False, value_range=True)
class RandomBrightness(_ValueLayer):
    """Adds a random brightness shift, a fraction of `value_range`, during training.

    One shift is drawn per image and added to all its pixels and channels;
    the result is clipped to `value_range`.

    Args:
        factor: ``f`` draws the shift from ``[-f, f]`` times the width of
            `value_range`; a pair ``(low, high)`` from ``[low, high]`` times it.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.full((1, 2, 2, 1), 0.5, "float32")
        >>> brighter = RandomBrightness((0.2, 0.2), value_range=(0, 1))
        >>> print(np.round(np.asarray(brighter(images))[0, :, :, 0], 3))
        [[0.7 0.7]
         [0.7 0.7]]
        >>> np.array_equal(np.asarray(brighter(images, training=False)), images)
        True
    """

    def draw(self, images):
        low, high = _factor_pair(self.factor, "RandomBrightness")
        span = self.value_range[1] - self.value_range[0]
        return {"rgb_delta": ops.multiply(self._draw_per_image(images, low, high), span)}

    def warp(self, images, transformation, interpolation):
        delta = ops.cast(transformation["rgb_delta"], images.dtype)
        return ops.clip(ops.add(images, delta), self.value_range[0], self.value_range[1])


@image_doc("pixels", data_format=False, value_range=True)
class RandomContrast(_ValueLayer):
    """Scales each image's contrast by a random factor during training.

    Each image becomes ``(x - mean) * c + mean``, with ``mean`` its mean per
    channel and ``c`` drawn per image, clipped to `value_range`.

    Args:
        factor: ``f`` draws ``c`` from ``[1 - f, 1 + f]``; a pair
            ``(low, high)`` from ``[1 - |low|, 1 + high]``.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
        >>> out = np.asarray(RandomContrast(0.5, seed=1)(images))
        >>> out.shape, bool(out.min() >= 0 and out.max() <= 255)
        ((2, 4, 4, 3), True)
        >>> np.array_equal(np.asarray(RandomContrast(0.5)(images, training=False)), images)
        True
    """

    _FACTOR_RANGE = (0.0, 1.0)

    def draw(self, images):
        low, high = _factor_pair(self.factor, "RandomContrast")
        return {"contrast_factor": self._draw_per_image(images, 1.0 - abs(low), 1.0 + high)}

    def warp(self, images, transformation, interpolation):
        factor = ops.cast(transformation["contrast_factor"], images.dtype)
        h_axis, w_axis, _ = self._spatial_axes()
        mean = ops.mean(images, axis=(h_axis, w_axis), keepdims=True)
        out = ops.add(ops.multiply(ops.subtract(images, mean), factor), mean)
        return ops.clip(out, self.value_range[0], self.value_range[1])


class _ColorLayer(RandomImageLayer):
    """A color augmentation with a `factor` range and a `value_range`."""

    _BOUNDS = (-1, 1)
    _SORT_VALUE_RANGE = True

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        name = type(self).__name__
        self.factor = factor_range(factor, self._BOUNDS, "factor", name)
        pair = value_range_pair(value_range, name)
        self.value_range = pair if self._SORT_VALUE_RANGE else list(value_range)

    def _channels(self, images):
        """The channels of `images` as a list of single-channel tensors."""
        _, _, c_axis = self._spatial_axes()
        return ops.split(images, images.shape[c_axis], axis=c_axis)

    def _merge(self, channels):
        return ops.concatenate(channels, axis=self._spatial_axes()[2])

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


@image_doc("rgb")
class RandomGrayscale(RandomImageLayer):
    """Turns a random fraction `factor` of the images to grayscale during training.

    A converted image keeps its channels: each holds the luminance
    ``0.2989 R + 0.587 G + 0.114 B``. Labels, boxes and masks pass through.

    Args:
        factor: the probability, in [0, 1], that an image is converted.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> red = np.array([[[[255.0, 0.0, 0.0]]]], "float32")
        >>> print(np.round(np.asarray(RandomGrayscale(factor=1.0)(red)), 3))
        [[[[76.22 76.22 76.22]]]]
        >>> np.asarray(RandomGrayscale(factor=1.0)(red, training=False)).tolist()
        [[[[255.0, 0.0, 0.0]]]]
    """

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if not 0 <= factor <= 1:
            raise ValueError(f"RandomGrayscale `factor` must be in [0, 1]. Received: {factor!r}.")
        self.factor = factor

    def augment(self, images):
        apply = self._per_image(ops.less(self._uniform((ops.shape(images)[0],)), self.factor))
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        return ops.where(apply, ops.add(ops.zeros_like(images), gray), images)

    # Keras 3's signatures for RandomGrayscale (its own, unlike the other layers').

    def get_random_transformation(self, images, training=True, seed=None):
        return super().get_random_transformation(images, training=training, seed=seed)

    def transform_labels(self, labels, transformations=None, **kwargs):
        return labels

    def transform_bounding_boxes(self, bounding_boxes, **kwargs):
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks, transformations=None, **kwargs):
        return segmentation_masks

    def compute_output_spec(self, inputs, **kwargs):
        return super().compute_output_spec(inputs, **kwargs)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class RandomHue(TransformationOptional, _ColorLayer):
    """Shifts the hue of each image by a random amount during training.

    Args:
        factor: ``f`` in [0, 1] shifts the hue (a turn is 1) by ``±u / 2`` with
            ``u`` drawn from ``[0, f]``; a pair gives the range of ``u``.
        value_range: the range of pixel values, e.g. ``(0, 255)``.
        data_format, seed: as the other augmentations.

    Example:
        >>> import numpy as np
        >>> red = np.array([[[[1.0, 0.0, 0.0]]]], "float32")
        >>> np.asarray(RandomHue(0.0, value_range=(0, 1))(red)).tolist()
        [[[[1.0, 0.0, 0.0]]]]
    """

    _BOUNDS = (0, 1)
    _SORT_VALUE_RANGE = False

    def augment(self, images):
        batch = ops.shape(images)[0]
        sign = ops.where(ops.greater(self._uniform((batch,)), 0.5), -1.0, 1.0)
        amount = self._uniform((batch,), *self.factor)
        delta = ops.multiply(ops.multiply(sign, amount), 0.5)
        delta = self._per_image(ops.cast(delta, images.dtype))
        hsv = ops.image.rgb_to_hsv(rescale(images, self.value_range, (0, 1)), self.data_format)
        hue, saturation, value = self._channels(hsv)
        hue = ops.add(hue, delta)
        hue = ops.where(ops.greater(hue, 1.0), ops.subtract(hue, 1.0), hue)
        hue = ops.where(ops.less(hue, 0.0), ops.add(hue, 1.0), hue)
        rgb = ops.image.hsv_to_rgb(self._merge([hue, saturation, value]), self.data_format)
        return rescale(ops.clip(rgb, 0.0, 1.0), (0, 1), self.value_range)


@image_doc("rgb")
class RandomSaturation(TransformationOptional, _ColorLayer):
    """Scales the saturation of each image by a random factor during training.

    A draw ``u`` of `factor` scales the saturation (in HSV) by ``u / (1 - u)``:
    0.5 keeps the image, 0 makes it gray, values near 1 saturate it fully.
    The scaled saturation is clipped to `value_range`, as Keras does.

    Args:
        factor: ``f`` in [0, 1] draws ``u`` from ``[-f, f]``; a pair
            ``(low, high)`` from ``[low, high]``.
        value_range: the ``(low, high)`` range of pixel values.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> orange = np.array([[[[1.0, 0.5, 0.0]]]], "float32")
        >>> gray = RandomSaturation((0.0, 0.0), value_range=(0, 1))
        >>> print(np.round(np.asarray(gray(orange)), 3))
        [[[[1. 1. 1.]]]]
        >>> keep = RandomSaturation((0.5, 0.5), value_range=(0, 1))
        >>> print(np.round(np.asarray(keep(orange)), 3))
        [[[[1.  0.5 0. ]]]]
    """

    def augment(self, images):
        u = self._uniform((ops.shape(images)[0],), *self.factor)
        scale = ops.divide(u, ops.add(ops.subtract(1.0, u), config.epsilon()))
        scale = self._per_image(ops.cast(scale, images.dtype))
        hue, saturation, value = self._channels(ops.image.rgb_to_hsv(images, self.data_format))
        saturation = ops.clip(ops.multiply(saturation, scale), *self.value_range)
        return ops.image.hsv_to_rgb(self._merge([hue, saturation, value]), self.data_format)


@image_doc("rgb", value_range=True)
class RandomColorDegeneration(TransformationOptional, _ColorLayer):
    """Blends each image toward its grayscale version by a random weight during training.

    An image becomes ``x + w * (gray(x) - x)``, clipped to `value_range`, with
    ``w`` drawn per image: 0 keeps it, 1 makes it gray.

    Args:
        factor: ``f`` in [0, 1] draws ``w`` from ``[-f, f]``; a pair
            ``(low, high)`` from ``[low, high]``.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> red = np.array([[[[255.0, 0.0, 0.0]]]], "float32")
        >>> half = RandomColorDegeneration((0.5, 0.5))
        >>> print(np.round(np.asarray(half(red)), 3))
        [[[[165.61  38.11  38.11]]]]
    """

    def augment(self, images):
        weight = self._per_image(self._uniform((ops.shape(images)[0],), *self.factor))
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        weight = ops.cast(weight, images.dtype)
        blended = ops.add(images, ops.multiply(weight, ops.subtract(gray, images)))
        return ops.clip(blended, *self.value_range)


@image_doc("pixels", seed=False)
class RandomInvert(_ColorLayer):
    """Inverts (``value_range[1] - x``) a random fraction of the images during training.

    Args:
        factor: the probability to invert an image: ``f`` in [0, 1] draws it
            from ``[0, f]``; a pair ``(low, high)`` from ``[low, high]``
            (``(1.0, 1.0)`` inverts every image).
        value_range: the ``(low, high)`` range of pixel values.
        seed: an int for reproducible draws.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.array([[[[0.0], [55.0], [255.0]]]], "float32")
        >>> invert = RandomInvert(factor=(1.0, 1.0))
        >>> np.asarray(invert(images))[0, 0, :, 0].tolist()
        [255.0, 200.0, 0.0]
        >>> np.asarray(invert(images, training=False))[0, 0, :, 0].tolist()
        [0.0, 55.0, 255.0]
    """

    _BOUNDS = (0, 1)
    _SORT_VALUE_RANGE = False

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(factor, value_range, data_format=data_format, seed=seed, **kwargs)

    def augment(self, images):
        batch = ops.shape(images)[0]
        probability = self._uniform((batch,), *self.factor)
        apply = self._per_image(ops.less(self._uniform((batch,)), probability))
        return ops.where(apply, ops.subtract(self.value_range[1], images), images)


@image_doc("pixels")
class RandomPosterization(TransformationOptional, _ColorLayer):
    """Keeps a random number of the high bits of each 8-bit channel during training.

    Pixels are mapped from `value_range` to [0, 255], floored to a multiple
    of ``2 ** (8 - bits)`` and mapped back; ``bits`` is drawn per image.

    Args:
        factor: the bits to keep, in [1, 8]: ``f`` draws from ``[1, f)``, a
            pair ``(low, high)`` from ``[low, high)`` (exactly ``low`` when
            equal).
        value_range: the ``(low, high)`` range of pixel values.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.array([[[[0.0], [100.0], [200.0], [255.0]]]], "float32")
        >>> two_bits = RandomPosterization((2, 2))
        >>> np.asarray(two_bits(images))[0, 0, :, 0].tolist()
        [0.0, 64.0, 192.0, 192.0]
    """

    _BOUNDS = (1, 8)

    def augment(self, images):
        batch = ops.shape(images)[0]
        low, high = self.factor
        if low != high:
            bits = random_ops.randint(
                (batch,), int(low), int(high), seed=self._seed(), dtype="int32"
            )
        else:
            bits = ops.full((batch,), int(low), dtype="int32")
        step = ops.power(2.0, ops.cast(ops.subtract(8, bits), "float32"))
        step = self._per_image(ops.cast(step, images.dtype))
        levels = ops.floor(ops.clip(rescale(images, self.value_range, (0, 255)), 0.0, 255.0))
        posterized = ops.multiply(ops.floor(ops.divide(levels, step)), step)
        return rescale(posterized, (0, 255), self.value_range)


@image_doc("rgb", seed=False)
class RandomColorJitter(RandomImageLayer):
    """Random brightness, contrast, saturation and hue changes, applied in that order.

    Each factor given (not None) makes the step of that name (the attributes
    `random_brightness`, `random_contrast`, `random_saturation`, `random_hue`;
    None for a factor not given) with this factor and `value_range`. As in
    Keras, every step draws from this layer's `generator`.

    Args:
        value_range: the ``(low, high)`` range of pixel values.
        brightness_factor: the `factor` of `RandomBrightness` (None: no
            brightness step).
        contrast_factor: the `factor` of `RandomContrast` (None: no step).
        saturation_factor: the `factor` of `RandomSaturation` (None: no step).
        hue_factor: the `factor` of `RandomHue` (None: no step).
        seed: an int for reproducible draws.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.full((1, 1, 2, 3), 0.5, "float32")
        >>> jitter = RandomColorJitter(value_range=(0, 1), brightness_factor=(0.2, 0.2))
        >>> print(np.round(np.asarray(jitter(images)), 3))
        [[[[0.7 0.7 0.7]
           [0.7 0.7 0.7]]]]
        >>> jitter = RandomColorJitter(brightness_factor=0.2, hue_factor=0.2, seed=3)
        >>> np.asarray(jitter(np.zeros((2, 4, 4, 3), "float32"))).shape
        (2, 4, 4, 3)
    """

    def __init__(
        self,
        value_range=(0, 255),
        brightness_factor=None,
        contrast_factor=None,
        saturation_factor=None,
        hue_factor=None,
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = list(value_range_pair(value_range, "RandomColorJitter"))
        self.brightness_factor = brightness_factor
        self.contrast_factor = contrast_factor
        self.saturation_factor = saturation_factor
        self.hue_factor = hue_factor
        common = {
            "value_range": self.value_range,
            "seed": seed,
            "data_format": self.data_format,
            "dtype": self.dtype_policy,
        }
        self.factor = (0.0, 0.0)  # Keras's base attribute; unused

        def make(cls, factor):
            return None if factor is None else cls(factor, **common)

        self.random_brightness = make(RandomBrightness, brightness_factor)
        self.random_contrast = make(RandomContrast, contrast_factor)
        self.random_saturation = make(RandomSaturation, saturation_factor)
        self.random_hue = make(RandomHue, hue_factor)

    def augment(self, images):
        steps = (self.random_brightness, self.random_contrast, self.random_saturation)
        for step in (*steps, self.random_hue):
            if step is not None:
                with drawing_from(step, self.generator):
                    images = step(images, training=True)
        return images

    def get_config(self):
        return {
            **super().get_config(),
            "value_range": self.value_range,
            "brightness_factor": self.brightness_factor,
            "contrast_factor": self.contrast_factor,
            "saturation_factor": self.saturation_factor,
            "hue_factor": self.hue_factor,
        }
