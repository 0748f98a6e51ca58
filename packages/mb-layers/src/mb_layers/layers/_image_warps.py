"""Random warps: `RandomPerspective` and `RandomElasticTransform`."""

from mb_layers._ops import ops
from mb_layers.layers import _image_boxes as boxes_math
from mb_layers.layers._image_augmentation import (
    FILL_MODES,
    INTERPOLATIONS,
    RandomImageLayer,
    check_choice,
    factor_range,
    image_axes,
    value_range_pair,
)
from mb_layers.layers._image_docs import image_doc
from mb_ops.random import draw_seed


@image_doc("geometry", seed=False)
class RandomPerspective(RandomImageLayer):
    """Applies a random perspective warp to a random fraction of the images in training.

    Each corner of the image moves by up to ``scale / 2`` of its own coordinates
    (the top-left corner stays), and the image is warped to match. Bounding
    boxes and segmentation masks of a data dict follow the images.

    Args:
        factor: the probability to warp an image: ``f`` in [0, 1] draws it
            from ``[0, f]``; a pair ``(low, high)`` from ``[low, high]``.
        scale: the strength of the warp, in [0, 1].
        interpolation: ``"bilinear"`` or ``"nearest"``.
        fill_value: the value outside the warped image.
        seed: an int for reproducible draws.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
        >>> layer = RandomPerspective(factor=1.0, scale=0.5, seed=1)
        >>> np.asarray(layer(images)).shape
        (2, 4, 4, 3)
        >>> np.array_equal(np.asarray(layer(images, training=False)), images)
        True
    """

    _GEOMETRIC = True

    def __init__(
        self,
        factor=1.0,
        scale=1.0,
        interpolation="bilinear",
        fill_value=0.0,
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1), "factor", "RandomPerspective")
        if not 0.0 <= scale <= 1.0:
            raise ValueError(f"RandomPerspective `scale` must be in [0, 1]. Received: {scale!r}.")
        check_choice("RandomPerspective", "interpolation", interpolation, INTERPOLATIONS)
        self.scale = scale
        self.interpolation = interpolation
        self.fill_value = fill_value
        self.height_axis, self.width_axis, self.channel_axis = image_axes(self.data_format)

    def draw(self, images):
        height, width = images.shape[self.height_axis], images.shape[self.width_axis]
        batch = ops.shape(images)[0]
        probability = self._uniform((batch,), *self.factor)
        apply = ops.less(self._uniform((batch,)), probability)
        shift = self._uniform((batch, 4, 2), -0.5 * self.scale, 0.5 * self.scale)
        corners = [[0.0, 0.0], [width - 1.0, 0.0], [0.0, height - 1.0], [width - 1.0, height - 1.0]]
        start = ops.add(ops.zeros_like(shift), ops.convert_to_tensor(corners, dtype="float32"))
        return {
            "apply_perspective": apply,
            "start_points": start,
            "end_points": ops.add(start, ops.multiply(start, shift)),
            "input_shape": tuple(images.shape),
        }

    def warp(self, images, transformation, interpolation):
        warped = ops.image.perspective_transform(
            images,
            transformation["start_points"],
            transformation["end_points"],
            interpolation=interpolation,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )
        return ops.where(self._per_image(transformation["apply_perspective"]), warped, images)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training or transformation is None:
            return bounding_boxes
        shape = transformation["input_shape"]
        height, width = shape[self.height_axis], shape[self.width_axis]
        out = boxes_math.to_xyxy(bounding_boxes, self.bounding_box_format, height, width)
        # The start points of the input land on the end points of the output.
        forward = boxes_math.homography(
            transformation["start_points"], transformation["end_points"]
        )
        moved = boxes_math.map_boxes(out, forward)["boxes"]
        apply = ops.reshape(transformation["apply_perspective"], (-1, 1, 1))
        out["boxes"] = ops.where(apply, moved, out["boxes"])
        return boxes_math.from_xyxy(out, self.bounding_box_format, height, width)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "scale": self.scale,
            "interpolation": self.interpolation,
            "fill_value": self.fill_value,
        }


class RandomElasticTransform(RandomImageLayer):
    """Applies a random elastic deformation to a random fraction of the images in training.

    A draw ``d`` of `scale` sets the displacement strength
    ``alpha = 0.1 * d * max(height, width)`` and smoothness
    ``sigma = 0.05 * d * min(height, width)`` of ``ops.image.elastic_transform``.
    Segmentation masks follow the images; bounding boxes are not supported
    (as in Keras).

    Args:
        factor: the probability to deform an image: ``f`` in [0, 1] draws it
            from ``[0, f]``; a pair ``(low, high)`` from ``[low, high]``.
        scale: ``s`` in [0, 1] draws ``d`` from ``[0, s]``; a pair gives the range.
        interpolation: ``"bilinear"`` or ``"nearest"``.
        fill_mode: ``"reflect"``, ``"wrap"``, ``"constant"``, ``"nearest"`` or ``"mirror"``.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        value_range: the ``(low, high)`` range of pixel values (outputs are
            clipped to it).
        seed: an int for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        **kwargs: the base layer's keyword arguments (``name``, ``dtype``).

    Call arguments:
        data: images ``(batch, height, width, channels)`` (``channels_first``:
            ``(batch, channels, height, width)``), one image, or a dict with
            ``"images"`` and any of ``"labels"`` and ``"segmentation_masks"``.
        training: False returns the data unchanged (images in the compute dtype).

    Returns:
        The same structure, the images of the same shape.

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)).astype("float32")
        >>> layer = RandomElasticTransform(factor=1.0, scale=1.0, seed=1)
        >>> out = np.asarray(layer(images))
        >>> out.shape, bool(out.min() >= 0 and out.max() <= 255)
        ((2, 8, 8, 3), True)
        >>> np.array_equal(np.asarray(layer(images, training=False)), images)
        True
    """

    _GEOMETRIC = True
    _BOXES_SUPPORTED = False

    def __init__(
        self,
        factor=1.0,
        scale=1.0,
        interpolation="bilinear",
        fill_mode="reflect",
        fill_value=0.0,
        value_range=(0, 255),
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        name = "RandomElasticTransform"
        self.factor = factor_range(factor, (0, 1), "factor", name)
        self.scale = factor_range(scale, (0, 1), "scale", name)
        check_choice(name, "interpolation", interpolation, INTERPOLATIONS)
        check_choice(name, "fill_mode", fill_mode, (*FILL_MODES, "mirror"))
        self.interpolation = interpolation
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.value_range = list(value_range_pair(value_range, name))
        self.height_axis, self.width_axis, self.channel_axis = image_axes(self.data_format)

    def get_elastic_transform_params(self, height, width, factor):
        """Keras's ``(alpha, sigma)`` of a distortion `factor` for a ``height x width`` image."""
        alpha = ops.multiply(factor, 0.1 * max(height, width))
        sigma = ops.multiply(factor, 0.05 * min(height, width))
        return alpha, sigma

    def get_random_transformation(self, data, training=True, seed=None):
        if self.scale[1] == 0 or self.factor[1] == 0:
            return None  # as Keras: nothing to deform
        return super().get_random_transformation(data, training=training, seed=seed)

    def draw(self, images):
        batch = ops.shape(images)[0]
        probability = self._uniform((batch,), *self.factor)
        return {
            "apply_transform": ops.less(self._uniform((batch,)), probability),
            "distortion_factor": self._uniform((), *self.scale, dtype=self.compute_dtype),
            # One noise seed for the images and their masks alike.
            "seed": draw_seed(self._seed()),
        }

    def augment(self, images):
        transformation = self.get_random_transformation(images)
        if transformation is None:
            return images
        return self.warp(images, transformation, self.interpolation)

    def warp(self, images, transformation, interpolation):
        height, width = images.shape[self.height_axis], images.shape[self.width_axis]
        alpha, sigma = self.get_elastic_transform_params(
            height, width, transformation["distortion_factor"]
        )
        warped = ops.image.elastic_transform(
            images,
            alpha=alpha,
            sigma=sigma,
            interpolation=interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            seed=transformation["seed"],
            data_format=self.data_format,
        )
        out = ops.where(self._per_image(transformation["apply_transform"]), warped, images)
        return ops.clip(out, *self.value_range)

    def get_config(self):
        return {
            **super().get_config(),
            "factor": self.factor,
            "scale": self.scale,
            "interpolation": self.interpolation,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "value_range": self.value_range,
        }
