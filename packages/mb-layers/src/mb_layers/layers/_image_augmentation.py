"""The base of the ``Random*`` image augmentations, and Keras 3's rules for their factors.

An augmentation draws one random transformation per image from its
`SeedGenerator` and applies it in training; in inference (``training=False``)
it only casts the images to the compute dtype, as Keras does. Images are
batched ``(batch, height, width, channels)`` (``channels_first``:
``(batch, channels, height, width)``) or a single unbatched image.
"""

from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._preprocessing import _RandomPreprocessing
from mb_layers.layers._reshaping import _data_format

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


class RandomImageLayer(_RandomPreprocessing):
    """Base of the augmentations: seed, data format, batching, and the training switch.

    Subclasses implement `augment(images)` on a batch of float images in
    `data_format`; `call` handles unbatched images and inference. Every draw
    comes from the layer's `generator` (see `_RandomPreprocessing`).
    """

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.data_format = _data_format(data_format)

    @property
    def _channels_first(self):
        return self.data_format == "channels_first"

    def _spatial_axes(self):
        """``(height_axis, width_axis, channel_axis)`` of a batch."""
        return (2, 3, 1) if self._channels_first else (1, 2, 3)

    def _uniform(self, shape, low=0.0, high=1.0, dtype=None):
        return random_ops.uniform(
            shape, minval=low, maxval=high, seed=self._seed(), dtype=dtype or "float32"
        )

    def _per_image(self, mask_or_values, rank=4):
        """A per-image ``(batch,)`` tensor reshaped to broadcast over images."""
        return ops.reshape(mask_or_values, (-1,) + (1,) * (rank - 1))

    def augment(self, images):
        raise NotImplementedError(f"{type(self).__name__} must implement augment(images).")

    def call(self, inputs, training=True):
        images = ops.cast(inputs, self.compute_dtype)
        if not training:
            return images
        rank = len(images.shape)
        if rank not in (3, 4):
            raise ValueError(
                f"{type(self).__name__} expects images of rank 3 (one image) or 4 (a batch). "
                f"Received: shape={tuple(images.shape)}."
            )
        if rank == 3:
            return ops.squeeze(self.augment(ops.expand_dims(images, 0)), axis=0)
        return self.augment(images)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "seed": self.seed, "data_format": self.data_format}
