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
from mb_ops.random import draw_seed


class RandomPerspective(RandomImageLayer):
    """Applies a random perspective warp to a random fraction of the images in training.

    Each corner of the image moves by up to ``scale / 2`` of its own coordinates
    (the top-left corner stays), and the image is warped to match.

    Args:
        factor: the probability to warp an image: ``f`` in [0, 1] draws it from ``[0, f]``.
        scale: the strength of the warp, in [0, 1].
        interpolation: ``"bilinear"`` or ``"nearest"``.
        fill_value: the value outside the warped image.
        seed, data_format: as the other augmentations.
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

    Args:
        factor: the probability to deform an image: ``f`` in [0, 1] draws it from ``[0, f]``.
        scale: ``s`` in [0, 1] draws ``d`` from ``[0, s]``; a pair gives the range.
        interpolation: ``"bilinear"`` or ``"nearest"``.
        fill_mode: ``"reflect"``, ``"wrap"``, ``"constant"``, ``"nearest"`` or ``"mirror"``.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        value_range: the range of pixel values (outputs are clipped to it).
        seed, data_format: as the other augmentations.
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
