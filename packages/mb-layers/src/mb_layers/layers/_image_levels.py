"""Layers that remap pixel levels: `AutoContrast`, `Equalization` and `Solarization`.

Each follows Keras 3's layer of the same name, formula for formula: the images
are mapped from `value_range` to [0, 255], remapped, and mapped back. Labels,
bounding boxes and segmentation masks pass through unchanged.
"""

from mb_layers._ops import ops
from mb_layers.layers._image_augmentation import rescale, value_range_pair
from mb_layers.layers._image_data import ImageDataLayer, RandomImageDataLayer


class AutoContrast(ImageDataLayer):
    """Stretches each image's channels over the whole `value_range`, in training and inference.

    Per image and channel, the lowest value becomes ``value_range[0]`` and the
    highest ``value_range[1]``; a constant channel (NaN after the division) is
    left as it was.

    Args:
        value_range: the range of pixel values, e.g. ``(0, 255)`` or ``(0, 1)``.
        data_format, bounding_box_format: as the other image layers.

    Example:
        >>> import numpy as np
        >>> image = np.array([[[[10.0], [20.0]], [[30.0], [40.0]]]], "float32")
        >>> np.asarray(AutoContrast()(image))[0, :, :, 0].tolist()
        [[0.0, 85.0], [170.0, 255.0]]
    """

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = value_range_pair(value_range, "AutoContrast")

    def transform_images(self, images, transformation=None, training=True):
        original = ops.cast(images, self.compute_dtype)
        images = rescale(original, self.value_range, (0, 255))
        h_axis, w_axis, _ = self._spatial_axes()
        low = ops.min(images, axis=(h_axis, w_axis), keepdims=True)
        high = ops.max(images, axis=(h_axis, w_axis), keepdims=True)
        span = ops.subtract(high, low)
        # A constant channel has nothing to stretch: it stays as it is (Keras: its NaN is
        # replaced by the input), without dividing by zero.
        flat = ops.less_equal(span, 0.0)
        scale = ops.divide(255.0, ops.where(flat, ops.ones_like(span), span))
        stretched = ops.add(ops.multiply(images, scale), ops.multiply(ops.negative(low), scale))
        out = rescale(ops.clip(stretched, 0.0, 255.0), (0, 255), self.value_range)
        return ops.where(ops.logical_or(flat, ops.isnan(out)), original, out)

    def get_config(self):
        return {**super().get_config(), "value_range": self.value_range}


def _solarization_factor(factor, name):
    message = (
        f"Solarization `{name}` must be a number or a pair of numbers in [0, 1]. "
        f"Received: {name}={factor!r}."
    )
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or any(not 0 <= f <= 1 for f in factor):
            raise ValueError(message)
        low, high = sorted(factor)
        return (low, high)
    if isinstance(factor, (int, float)) and not isinstance(factor, bool) and 0 <= factor <= 1:
        return (0, factor)
    raise ValueError(message)


class Solarization(RandomImageDataLayer):
    """Adds a random amount to each image, then inverts the pixels above a random threshold.

    In training, per image: ``x + a`` clipped to [0, 255] (on the [0, 255]
    scale), then ``255 - x`` where ``x`` is at least the threshold ``t``. As in
    Keras, ``a`` is drawn from ``[low, 255 * high]`` of `addition_factor` and
    ``t`` likewise from `threshold_factor`; with both factors 0 every pixel is
    inverted. In inference the images pass through (cast to the compute dtype).

    Args:
        addition_factor: ``f`` in [0, 1] means the pair ``(0, f)``.
        threshold_factor: ``f`` in [0, 1] means the pair ``(0, f)``.
        value_range: the range of pixel values.
        seed: an int for reproducible draws.

    Example:
        >>> import numpy as np
        >>> image = np.array([[[[10.0], [200.0]]]], "float32")
        >>> np.asarray(Solarization()(image, training=True))[0, 0, :, 0].tolist()
        [245.0, 55.0]
    """

    def __init__(
        self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs
    ):
        super().__init__(seed=seed, **kwargs)
        self.addition_factor = _solarization_factor(addition_factor, "addition_factor")
        self.threshold_factor = _solarization_factor(threshold_factor, "threshold_factor")
        self.value_range = value_range_pair(value_range, "Solarization")

    def draw(self, images):
        shape = (ops.shape(images)[0], 1, 1, 1)
        dtype = self.compute_dtype
        additions = self._uniform(
            shape, self.addition_factor[0], self.addition_factor[1] * 255, dtype
        )
        thresholds = self._uniform(
            shape, self.threshold_factor[0], self.threshold_factor[1] * 255, dtype
        )
        return additions, thresholds

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        additions, thresholds = transformation
        images = rescale(images, self.value_range, (0, 255))
        added = ops.clip(ops.add(images, additions), 0.0, 255.0)
        solarized = ops.where(ops.less(added, thresholds), added, ops.subtract(255.0, added))
        return rescale(solarized, (0, 255), self.value_range)

    def get_config(self):
        return {
            **super().get_config(),
            "value_range": self.value_range,
            "addition_factor": self.addition_factor,
            "threshold_factor": self.threshold_factor,
        }


def _histogram(indices, bins):
    """Counts of each of ``0 .. bins - 1`` in the int32 `indices` (any shape)."""
    flat = ops.reshape(indices, (-1, 1))
    return ops.scatter(flat, ops.ones((ops.shape(flat)[0],), dtype="int32"), (bins,))


def _linear_map(x, source, target):
    """Keras's ``x * scale + offset`` map of `source` onto `target` (its float rounding)."""
    scale = (target[1] - target[0]) / (source[1] - source[0])
    return ops.add(ops.multiply(x, scale), target[0] - source[0] * scale)


def _rounded_ratio(numerator, denominator):
    """``round(numerator / denominator)`` (half to even) of non-negative int32 tensors,
    computed exactly in integers (a float32 division can round the other way)."""
    twice = ops.add(ops.multiply(numerator, 2), denominator)
    quotient = ops.floor_divide(twice, ops.multiply(denominator, 2))
    exact_half = ops.equal(ops.mod(twice, ops.multiply(denominator, 2)), 0)
    odd = ops.equal(ops.mod(quotient, 2), 1)
    return ops.where(ops.logical_and(exact_half, odd), ops.subtract(quotient, 1), quotient)


class Equalization(ImageDataLayer):
    """Equalizes the histogram of each channel (in training; inference passes through).

    As in Keras 3, one histogram of `bins` levels is taken per channel over the
    whole batch, and its cumulative distribution becomes the lookup table of
    new levels; a channel with a single level is left unchanged.

    Args:
        value_range: the range of pixel values.
        bins: the number of histogram levels (256 for 8-bit images).
        data_format, bounding_box_format: as the other image layers.

    Example:
        >>> import numpy as np
        >>> image = np.array([[[[0.0], [50.0]], [[50.0], [100.0]]]], "float32")
        >>> np.asarray(Equalization()(image))[0, :, :, 0].tolist()
        [[0.0, 170.0], [170.0, 255.0]]
    """

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.factor = (0.0, 0.0)  # Keras's base attribute; unused
        self.bins = bins
        self.value_range = value_range_pair(value_range, "Equalization")

    def _equalize(self, channel):
        bins = self.bins
        channel = _linear_map(channel, self.value_range, (0, 255))
        levels = ops.cast(ops.divide(ops.multiply(channel, bins - 1), 255.0), "int32")
        levels = ops.clip(levels, 0, bins - 1)
        histogram = _histogram(levels, bins)
        cdf = ops.cumsum(histogram)
        cdf_min = ops.take(cdf, ops.argmax(ops.greater(cdf, 0)))
        span = ops.subtract(cdf[-1], cdf_min)
        span = ops.where(ops.equal(span, 0), ops.ones_like(span), span)
        table = _rounded_ratio(ops.multiply(ops.subtract(cdf, cdf_min), 255), span)
        table = ops.cast(ops.clip(table, 0, 255), channel.dtype)
        positions = ops.multiply(ops.divide(channel, 255.0), bins - 1)
        lookup = ops.cast(ops.clip(positions, 0, bins - 1), "int32")
        single_level = ops.less_equal(ops.count_nonzero(histogram), 1)
        equalized = ops.where(single_level, channel, ops.take(table, lookup))
        return _linear_map(equalized, (0, 255), self.value_range)

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training:
            return images
        c_axis = self._spatial_axes()[2]
        channels = [
            self._equalize(ops.take(images, i, axis=c_axis)) for i in range(images.shape[c_axis])
        ]
        return ops.cast(ops.stack(channels, axis=c_axis), self.compute_dtype)

    def compute_output_spec(self, inputs, **kwargs):
        return super().compute_output_spec(inputs, **kwargs)

    def get_config(self):
        return {**super().get_config(), "bins": self.bins, "value_range": self.value_range}
