"""The base of the ``Random*`` image augmentations, and Keras 3's rules for their factors.

An augmentation draws one random transformation per image from its
`SeedGenerator` and applies it in training; in inference (``training=False``)
it only casts the images to the compute dtype, as Keras does. Images are
batched ``(batch, height, width, channels)`` (``channels_first``:
``(batch, channels, height, width)``) or a single unbatched image.
"""

from mb_layers._ops import ops
from mb_layers.layers._image_data import RandomImageDataLayer

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")


def factor_range(factor, bounds, name, layer):
    """Keras's ``(low, high)`` for a factor: a number f gives ``(max(-f, bounds[0]), f)``."""
    message = (
        f"{layer} `{name}` must be a number or a pair of numbers in [{bounds[0]}, "
        f"{bounds[1]}]. Received: {name}={factor!r}."
    )
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        low, high = sorted(factor)
        return (low, high)
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(message)
        factor = abs(factor)
        return (max(-factor, bounds[0]), factor)
    raise ValueError(message)


def symmetric_range(factor, name, layer, low=-1.0, high=1.0, open_low=False):
    """``(-f, f)`` for a number, a sorted pair otherwise; every value in [low, high]."""
    interval = f"{'(' if open_low else '['}{low}, {high}]"

    def check(value):
        below = value <= low if open_low else value < low
        if below or value > high:
            raise ValueError(
                f"{layer} `{name}` must be a number or a pair of numbers in {interval}. "
                f"Received: {name}={factor!r}."
            )

    if isinstance(factor, (tuple, list)) and len(factor) == 2:
        check(factor[0])
        check(factor[1])
        lower, upper = sorted(factor)
        return (lower, upper)
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        check(factor)
        return (-abs(factor), abs(factor))
    raise ValueError(
        f"{layer} `{name}` must be a number or a pair of numbers in {interval}. "
        f"Received: {name}={factor!r}."
    )


def check_choice(layer, name, value, allowed):
    if value not in allowed:
        raise NotImplementedError(
            f"{layer} does not support {name}={value!r}. Expected one of {allowed}."
        )


def value_range_pair(value_range, layer):
    """`value_range` as a sorted pair, or a ValueError saying what is expected."""
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(
            f"{layer} `value_range` must be a pair of numbers (low, high), e.g. (0, 255). "
            f"Received: value_range={value_range!r}."
        )
    return sorted(value_range)


def image_axes(data_format):
    """Keras's ``(height_axis, width_axis, channel_axis)``: negative, so they fit batched
    and unbatched images alike."""
    return (-2, -1, -3) if data_format == "channels_first" else (-3, -2, -1)


def rescale(images, source, target):
    """Images of the value range `source` mapped linearly onto `target`."""
    (s_low, s_high), (t_low, t_high) = source, target
    if (s_low, s_high) == (t_low, t_high):
        return images
    unit = ops.divide(ops.subtract(images, s_low), s_high - s_low)
    return ops.add(ops.multiply(unit, t_high - t_low), t_low)


class RandomImageLayer(RandomImageDataLayer):
    """Base of the ``Random*`` augmentations: seed, data format, and the training switch.

    It is an `ImageDataLayer`: ``call(data, training=True)`` takes images or a
    data dict and applies one transformation, drawn by
    `get_random_transformation`, to every part. A geometric layer implements
    `draw(images)` (the transformation of a batch) and `warp(images,
    transformation, interpolation)`; the masks are warped with ``"nearest"``.
    A color layer implements `augment(images)`, which draws as it goes: its
    transformation is None and labels, boxes and masks pass through.
    """

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)

    def _per_image(self, mask_or_values, rank=4):
        """A per-image ``(batch,)`` tensor reshaped to broadcast over images."""
        return ops.reshape(mask_or_values, (-1,) + (1,) * (rank - 1))

    _GEOMETRIC = False  # True: segmentation masks move with the images

    def draw(self, images):
        return None

    def augment(self, images):
        """`images` (a batch) after a fresh draw: `warp` of `draw` unless overridden."""
        transformation = self.draw(images)
        if transformation is None:
            raise NotImplementedError(
                f"{type(self).__name__} must implement augment(images) or draw(images)."
            )
        return self.warp(images, transformation, getattr(self, "interpolation", "bilinear"))

    def warp(self, images, transformation, interpolation):
        """`images` (a batch) changed by `transformation`."""
        raise NotImplementedError(f"{type(self).__name__} must implement warp().")

    def _on_batch(self, images, function):
        if len(images.shape) == 3:
            return ops.squeeze(function(ops.expand_dims(images, 0)), axis=0)
        return function(images)

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training:
            return images
        if transformation is None:
            return self._on_batch(images, self.augment)
        interpolation = getattr(self, "interpolation", "bilinear")
        return self._on_batch(images, lambda x: self.warp(x, transformation, interpolation))

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not (self._GEOMETRIC and training) or transformation is None:
            return segmentation_masks
        masks = ops.convert_to_tensor(segmentation_masks)
        warped = self._on_batch(
            ops.cast(masks, "float32"), lambda x: self.warp(x, transformation, "nearest")
        )
        return ops.cast(warped, masks.dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class TransformationOptional:
    """Mixin giving Keras 3's ``transform_images(images, transformation=None, ...)`` of
    the layers that may be called without a transformation (they draw one then)."""

    def transform_images(self, images, transformation=None, training=True):
        return super().transform_images(images, transformation, training=training)
