"""Augmentations that pick a region of the image: `RandomCrop` and `RandomErasing`."""

from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._image_augmentation import (
    RandomImageLayer,
    TransformationOptional,
    factor_range,
    image_axes,
    value_range_pair,
)
from mb_layers.layers._image_docs import image_doc
from mb_layers.layers._image_geometry import center_window, crop_boxes
from mb_ops.random import make_default_seed


class RandomCrop(RandomImageLayer):
    """Crops a random ``(height, width)`` window during training (one window per batch).

    In inference, and in training when the image is not larger than the
    target in both dimensions, it crops the largest centered window with the
    target's aspect ratio and resizes it to ``(height, width)`` (what Keras 3
    documents; Keras itself returns the image unchanged in inference). Boxes
    are cut to the window (and scaled with a resize); masks are cropped alike.

    The transformation is a dict: ``"h_start"`` and ``"w_start"`` (the window's
    top-left corner), ``"crop_height"``, ``"crop_width"`` and ``"input_shape"``.
    Keras's ``(h_start, w_start)`` pair is taken too, as a ``(height, width)``
    window (boxes in a relative format then need the dict, which has the size).

    Args:
        height: the output height.
        width: the output width.
        seed: an int for reproducible windows (a random one is drawn and kept in
            the config when omitted, as Keras does).
        data_format: ``"channels_last"`` or ``"channels_first"``.
        name: the layer's name.
        **kwargs: ``bounding_box_format`` (needed for a dict with boxes, e.g.
            ``"xyxy"``) and the base layer's keyword arguments (``dtype``).

    Call arguments:
        data: images ``(batch, height, width, channels)`` (``channels_first``:
            ``(batch, channels, height, width)``), one image, or a dict with
            ``"images"`` and any of ``"labels"``, ``"bounding_boxes"`` and
            ``"segmentation_masks"``.
        training: True crops a random window, False the centered one.

    Returns:
        The same structure, the images ``(batch, height, width, channels)``.

    Example:
        >>> import numpy as np
        >>> np.asarray(RandomCrop(2, 3, seed=1)(np.zeros((2, 4, 5, 3)))).shape
        (2, 2, 3, 3)
        >>> image = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> window = np.asarray(RandomCrop(2, 2, seed=1)(image))[0, :, :, 0]
        >>> float(window[1, 1] - window[0, 0])  # a contiguous 2x2 block of the 4x4 image
        5.0
    """

    _GEOMETRIC = True

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        if seed is None:
            seed = make_default_seed()
        super().__init__(seed=seed, data_format=data_format, name=name, **kwargs)
        self.height = height
        self.width = width
        self.height_axis, self.width_axis, _ = image_axes(self.data_format)
        self.factor = (0.0, 0.0)  # Keras's base attribute; unused

    def _input_size(self, images):
        h, w = images.shape[self.height_axis], images.shape[self.width_axis]
        if h is None or w is None:
            raise ValueError(
                "RandomCrop needs images of known height and width. "
                f"Received: shape={tuple(images.shape)}."
            )
        return h, w

    def get_random_transformation(self, data, training=True, seed=None):
        images = data["images"] if isinstance(data, dict) else data
        h, w = self._input_size(images)
        if training and h > self.height and w > self.width:
            return super().get_random_transformation(data, training=True, seed=seed)
        top, left, crop_h, crop_w = center_window(h, w, self.height, self.width)
        return {
            "h_start": top,
            "w_start": left,
            "crop_height": crop_h,
            "crop_width": crop_w,
            "input_shape": tuple(images.shape),
        }

    def draw(self, images):
        h, w = self._input_size(images)
        top = random_ops.uniform((), 0, h - self.height + 1, seed=self._seed())
        left = random_ops.uniform((), 0, w - self.width + 1, seed=self._seed())
        return {
            "h_start": ops.cast(top, "int32"),
            "w_start": ops.cast(left, "int32"),
            "crop_height": self.height,
            "crop_width": self.width,
            "input_shape": tuple(images.shape),
        }

    def _window(self, images, top, left, height, width):
        h_axis, w_axis = self.height_axis, self.width_axis
        if isinstance(top, int):
            index = [slice(None)] * 4
            index[h_axis], index[w_axis] = slice(top, top + height), slice(left, left + width)
            return images[tuple(index)]
        start = [ops.zeros_like(top)] * 4
        start[h_axis], start[w_axis] = top, left
        size = list(ops.shape(images))  # the batch may be unknown (tf.data)
        size[h_axis], size[w_axis] = height, width
        return ops.slice(images, ops.cast(ops.stack(start), "int32"), size)

    def _window_of(self, transformation, input_shape=None):
        """The transformation as a dict (from Keras's ``(h_start, w_start)`` pair too)."""
        if isinstance(transformation, dict):
            return transformation
        h_start, w_start = transformation
        return {
            "h_start": h_start,
            "w_start": w_start,
            "crop_height": self.height,
            "crop_width": self.width,
            "input_shape": input_shape,
        }

    def warp(self, images, transformation, interpolation):
        t = self._window_of(transformation)
        window = self._window(images, t["h_start"], t["w_start"], t["crop_height"], t["crop_width"])
        if (t["crop_height"], t["crop_width"]) == (self.height, self.width):
            return window
        resized = ops.image.resize(
            window, (self.height, self.width), interpolation=interpolation,
            data_format=self.data_format,
        )  # fmt: skip
        return ops.cast(resized, images.dtype)

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if transformation is None:
            transformation = self.get_random_transformation(images, training=training)
        return self._on_batch(images, lambda x: self.warp(x, transformation, "bilinear"))

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        masks = ops.convert_to_tensor(segmentation_masks)
        if transformation is None:
            transformation = self.get_random_transformation(masks, training=training)
        cropped = self._on_batch(
            ops.cast(masks, "float32"), lambda x: self.warp(x, transformation, "nearest")
        )
        return ops.cast(cropped, masks.dtype)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        t = self._window_of(transformation)
        h_axis, w_axis = self.height_axis, self.width_axis
        shape = t["input_shape"]
        input_size = (None, None) if shape is None else (shape[h_axis], shape[w_axis])
        window = (t["h_start"], t["w_start"], t["crop_height"], t["crop_width"])
        return crop_boxes(self, bounding_boxes, input_size, window, (self.height, self.width))

    def compute_output_shape(self, input_shape, *args, **kwargs):
        shape = list(input_shape)
        shape[self.height_axis] = self.height
        shape[self.width_axis] = self.width
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}


@image_doc("pixels", seed=False)
class RandomErasing(TransformationOptional, RandomImageLayer):
    """Fills a random rectangle of some images with a value or noise during training.

    Args:
        factor: the probability to erase an image: ``f`` in [0, 1] draws it from
            ``[0, f]``, a pair ``(low, high)`` from ``[low, high]``.
        scale: the range of the erased area's side as a fraction of the image's
            side (squared in area): a pair in [0, 1].
        fill_value: None (Gaussian noise scaled by ``value_range[1]``), a number,
            or one number per channel.
        value_range: the ``(low, high)`` range of pixel values; fills are
            clipped to it.
        seed: an int for reproducible draws.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.ones((1, 4, 4, 1), "float32")
        >>> erase_all = RandomErasing(factor=(1.0, 1.0), scale=(1.0, 1.0), fill_value=0.0)
        >>> float(np.asarray(erase_all(images)).sum())
        0.0
        >>> float(np.asarray(erase_all(images, training=False)).sum())
        16.0
    """

    def __init__(
        self,
        factor=1.0,
        scale=(0.02, 0.33),
        fill_value=None,
        value_range=(0, 255),
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1), "factor", "RandomErasing")
        self.scale = factor_range(scale, (0, 1), "scale", "RandomErasing")
        if fill_value is not None and not isinstance(fill_value, (int, float)):
            if not isinstance(fill_value, (tuple, list)) or len(fill_value) != 3:
                raise ValueError(
                    "RandomErasing `fill_value` must be None, a number or three numbers (one "
                    f"per channel). Received: fill_value={fill_value!r}."
                )
            fill_value = list(fill_value)
        self.fill_value = fill_value
        self.value_range = value_range_pair(value_range, "RandomErasing")
        self.height_axis, self.width_axis, self.channel_axis = image_axes(self.data_format)

    def _bounds(self, batch, length, ratio):
        crop = ops.multiply(ratio, float(length))
        start = ops.multiply(self._uniform((batch,)), ops.subtract(float(length), crop))
        return self._per_image(start, 3), self._per_image(ops.add(start, crop), 3)

    def _fill(self, images):
        low, high = self.value_range
        if self.fill_value is None:
            noise = random_ops.normal(
                ops.shape(images), seed=self._seed(), dtype=self.compute_dtype
            )
            return ops.clip(ops.multiply(noise, high), low, high)
        value = ops.convert_to_tensor(self.fill_value, dtype=self.compute_dtype)
        if isinstance(self.fill_value, list):
            shape = (1, 3, 1, 1) if self._channels_first else (1, 1, 1, 3)
            value = ops.reshape(value, shape)
        return ops.clip(ops.add(ops.zeros_like(images), value), low, high)

    def augment(self, images):
        height, width = images.shape[self.height_axis], images.shape[self.width_axis]
        batch = ops.shape(images)[0]
        sides = ops.sqrt(self._uniform((batch, 2), *self.scale))
        x0, x1 = self._bounds(batch, width, sides[:, 0])
        y0, y1 = self._bounds(batch, height, sides[:, 1])
        cols = ops.reshape(ops.arange(width, dtype="float32"), (1, 1, width))
        rows = ops.reshape(ops.arange(height, dtype="float32"), (1, height, 1))
        inside = ops.logical_and(
            ops.logical_and(ops.greater_equal(cols, x0), ops.less(cols, x1)),
            ops.logical_and(ops.greater_equal(rows, y0), ops.less(rows, y1)),
        )
        probability = self._uniform((batch,), *self.factor)
        apply = self._per_image(ops.less(self._uniform((batch,)), probability), 3)
        erase = ops.expand_dims(ops.logical_and(inside, apply), self.channel_axis)
        return ops.where(erase, self._fill(images), images)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "scale": self.scale,
            "fill_value": self.fill_value,
            "value_range": self.value_range,
        }
