"""Random affine augmentations: `RandomRotation`, `RandomTranslation`, `RandomZoom`, `RandomShear`.

Each draws one transform per image and applies it with
``ops.image.affine_transform``; a transform maps output pixel coordinates
``(x, y)`` to the input coordinates sampled there, as in Keras 3.
"""

import math

from mb_layers._ops import ops
from mb_layers.layers import _image_boxes as boxes_math
from mb_layers.layers._arguments import base_arguments
from mb_layers.layers._image_augmentation import (
    FILL_MODES,
    INTERPOLATIONS,
    RandomImageLayer,
    check_choice,
    factor_range,
    symmetric_range,
)
from mb_layers.layers._image_docs import image_doc


class _RandomAffine(RandomImageLayer):
    def __init__(
        self,
        *,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        check_choice(type(self).__name__, "fill_mode", fill_mode, FILL_MODES)
        check_choice(type(self).__name__, "interpolation", interpolation, INTERPOLATIONS)
        self.fill_mode = fill_mode
        self.interpolation = interpolation
        self.fill_value = fill_value

    _GEOMETRIC = True

    def _size(self, images):
        h_axis, w_axis, _ = self._spatial_axes()
        return images.shape[h_axis], images.shape[w_axis]

    def _input_size(self, transformation):
        shape = transformation["input_shape"]
        h_axis, w_axis, _ = self._spatial_axes()
        return shape[h_axis], shape[w_axis]

    def matrix(self, transformation):
        """The ``(batch, 8)`` transforms of `transformation` (output pixel to input pixel)."""
        raise NotImplementedError

    def warp(self, images, transformation, interpolation):
        return ops.image.affine_transform(
            images,
            ops.cast(self.matrix(transformation), "float32"),
            interpolation=interpolation,
            fill_mode=self.fill_mode,
            fill_value=self.fill_value,
            data_format=self.data_format,
        )

    def get_transformed_x_y(self, x, y, transform):
        """Keras's helper: the point ``(x, y)`` mapped by the ``(batch, 8)`` `transform`."""
        return boxes_math.transformed_x_y(x, y, transform)

    def _move_boxes(self, bounding_boxes, transformation):
        """xyxy boxes of the input moved where the transformation puts their corners."""
        inverse = boxes_math.inverse_transforms(self.matrix(transformation))
        return boxes_math.map_boxes(bounding_boxes, inverse)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training or transformation is None:
            return bounding_boxes
        height, width = self._input_size(transformation)
        out = boxes_math.to_xyxy(bounding_boxes, self.bounding_box_format, height, width)
        out = self._move_boxes(out, transformation)
        return boxes_math.from_xyxy(out, self.bounding_box_format, height, width)

    def get_config(self):
        return {
            **super().get_config(),
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "interpolation": self.interpolation,
        }


def _matrix(a0, a1, a2, b0, b1, b2):
    zero = ops.zeros_like(a0)
    return ops.stack([a0, a1, a2, b0, b1, b2, zero, zero], axis=1)


class RandomRotation(_RandomAffine):
    """Rotates images by a random angle about their center during training.

    Args:
        factor: a fraction of a full turn: ``f`` draws angles in
            ``[-f * 360, f * 360]`` degrees, a pair ``(low, high)`` in
            ``[low * 360, high * 360]``. Positive angles turn counter-clockwise.
        fill_mode: ``"reflect"``, ``"wrap"``, ``"constant"`` or ``"nearest"``.
        interpolation: ``"bilinear"`` or ``"nearest"``.
        seed: an int for reproducible rotations.
        fill_value: the value outside the image with ``fill_mode="constant"``.
        data_format: ``"channels_last"`` or ``"channels_first"``.

    Example:
        >>> import numpy as np
        >>> image = np.arange(9.0).reshape(1, 3, 3, 1)
        >>> quarter = RandomRotation((0.25, 0.25), interpolation="nearest")
        >>> np.asarray(quarter(image))[0, :, :, 0].tolist()  # np.rot90
        [[2.0, 5.0, 8.0], [1.0, 4.0, 7.0], [0.0, 3.0, 6.0]]
    """

    def __init__(
        self,
        factor,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_RandomAffine.__init__, locals()))
        self.factor = factor_range(factor, (-1, 1), "factor", "RandomRotation")

    def draw(self, images):
        height, width = self._size(images)
        low, high = self.factor
        batch = ops.shape(images)[0]
        return {
            "angle": self._uniform((batch,), low * 360.0, high * 360.0),
            "input_shape": tuple(images.shape),
            "image_height": height,
            "image_width": width,
            "batch_size": batch,
        }

    def matrix(self, transformation):
        height, width = self._input_size(transformation)
        angle = ops.multiply(transformation["angle"], math.pi / 180.0)
        cos, sin = ops.cos(angle), ops.sin(angle)
        cx, cy = 0.5 * (width - 1), 0.5 * (height - 1)
        a2 = ops.add(ops.subtract(cx, ops.multiply(cx, cos)), ops.multiply(cy, sin))
        b2 = ops.subtract(ops.subtract(cy, ops.multiply(cx, sin)), ops.multiply(cy, cos))
        return _matrix(cos, ops.negative(sin), a2, sin, cos, b2)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@image_doc("geometry", seed=False)
class RandomTranslation(_RandomAffine):
    """Shifts images by a random fraction of their height and width during training.

    One shift is drawn per image; bounding boxes and segmentation masks of a
    data dict move with it (masks with nearest interpolation).

    Args:
        height_factor: ``f`` shifts by up to ``f * height`` pixels either way; a
            pair ``(low, high)`` in ``[low * height, high * height]`` (positive:
            down). Values in [-1, 1].
        width_factor: the same for the width (positive: right).
        fill_mode: how the uncovered area is filled: ``"reflect"``, ``"wrap"``,
            ``"constant"`` or ``"nearest"``.
        interpolation: ``"bilinear"`` or ``"nearest"``.
        seed: an int for reproducible shifts.
        fill_value: the value of the uncovered area with ``fill_mode="constant"``.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> image = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> down_one_row = RandomTranslation(
        ...     (0.25, 0.25), 0.0, fill_mode="constant", interpolation="nearest",
        ...     bounding_box_format="xyxy")
        >>> boxes = {"boxes": np.array([[[0.0, 0.0, 2.0, 2.0]]]), "labels": np.array([[1]])}
        >>> out = down_one_row({"images": image, "bounding_boxes": boxes})
        >>> np.asarray(out["images"])[0, :, :, 0].tolist()
        [[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]
        >>> np.asarray(out["bounding_boxes"]["boxes"]).tolist()
        [[[0.0, 1.0, 2.0, 3.0]]]
    """

    def __init__(
        self,
        height_factor,
        width_factor,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_RandomAffine.__init__, locals()))
        self.height_factor = height_factor
        self.width_factor = width_factor
        name = "RandomTranslation"
        self.height_lower, self.height_upper = symmetric_range(height_factor, "height_factor", name)
        self.width_lower, self.width_upper = symmetric_range(width_factor, "width_factor", name)

    def draw(self, images):
        height, width = self._size(images)
        batch = ops.shape(images)[0]
        dy = ops.multiply(self._uniform((batch, 1), self.height_lower, self.height_upper), height)
        dx = ops.multiply(self._uniform((batch, 1), self.width_lower, self.width_upper), width)
        translations = ops.cast(ops.concatenate([dx, dy], axis=1), "float32")
        return {"translations": translations, "input_shape": tuple(images.shape)}

    def matrix(self, transformation):
        translations = ops.convert_to_tensor(transformation["translations"])
        dx, dy = translations[:, 0], translations[:, 1]
        one, zero = ops.ones_like(dx), ops.zeros_like(dx)
        return _matrix(one, zero, ops.negative(dx), zero, one, ops.negative(dy))

    def get_shifted_bbox(self, bounding_boxes, w_shift_factor, h_shift_factor):
        """Keras's helper: xyxy boxes moved by ``(-w_shift_factor, -h_shift_factor)``."""
        return boxes_math.shifted(bounding_boxes, w_shift_factor, h_shift_factor)

    def _move_boxes(self, bounding_boxes, transformation):
        # The input's origin lands at (-a2, -b2): shift every box by that (as Keras).
        w_shift, h_shift = self.get_transformed_x_y(0, 0, self.matrix(transformation))
        return self.get_shifted_bbox(bounding_boxes, w_shift, h_shift)

    def get_config(self):
        return {
            **super().get_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
        }


@image_doc("geometry", seed=False)
class RandomZoom(_RandomAffine):
    """Zooms images in or out about their center by a random factor during training.

    One zoom is drawn per image; bounding boxes and segmentation masks of a
    data dict follow it (masks with nearest interpolation).

    Args:
        height_factor: ``f`` scales the sampled height by ``1 + u`` with ``u`` in
            ``[-f, f]`` (negative ``u`` zooms in); a pair ``(low, high)`` gives
            the range of ``u``. Values in (-1, 1].
        width_factor: the same for the width; None keeps the aspect ratio.
        fill_mode: how the area outside the input is filled: ``"reflect"``,
            ``"wrap"``, ``"constant"`` or ``"nearest"``.
        interpolation: ``"bilinear"`` or ``"nearest"``.
        seed: an int for reproducible zooms.
        fill_value: the value outside the input with ``fill_mode="constant"``.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> image = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> zoom_in_2x = RandomZoom((-0.5, -0.5), interpolation="nearest")
        >>> np.asarray(zoom_in_2x(image))[0, :, :, 0].tolist()
        [[5.0, 5.0, 6.0, 6.0], [5.0, 5.0, 6.0, 6.0], [9.0, 9.0, 10.0, 10.0], [9.0, 9.0, 10.0, 10.0]]
        >>> np.array_equal(np.asarray(zoom_in_2x(image, training=False)), image)
        True
    """

    def __init__(
        self,
        height_factor,
        width_factor=None,
        fill_mode="reflect",
        interpolation="bilinear",
        seed=None,
        fill_value=0.0,
        data_format=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_RandomAffine.__init__, locals()))
        self.height_factor = height_factor
        self.width_factor = width_factor
        check = {"low": -1.0, "high": 1.0, "open_low": True}
        self.height_lower, self.height_upper = symmetric_range(
            height_factor, "height_factor", "RandomZoom", **check
        )
        if width_factor is not None:  # as Keras: no width bounds without a width factor
            self.width_lower, self.width_upper = symmetric_range(
                width_factor, "width_factor", "RandomZoom", **check
            )

    def draw(self, images):
        batch = ops.shape(images)[0]
        zoom_y = self._uniform((batch, 1), 1.0 + self.height_lower, 1.0 + self.height_upper)
        zoom_x = zoom_y
        if self.width_factor is not None:
            zoom_x = self._uniform((batch, 1), 1.0 + self.width_lower, 1.0 + self.width_upper)
        return {"height_zoom": zoom_y, "width_zoom": zoom_x, "input_shape": tuple(images.shape)}

    def matrix(self, transformation):
        height, width = self._input_size(transformation)
        zoom_x = ops.convert_to_tensor(transformation["width_zoom"])[:, 0]
        zoom_y = ops.convert_to_tensor(transformation["height_zoom"])[:, 0]
        x_offset = ops.multiply(ops.subtract(1.0, zoom_x), (width - 1) / 2.0)
        y_offset = ops.multiply(ops.subtract(1.0, zoom_y), (height - 1) / 2.0)
        zero = ops.zeros_like(zoom_x)
        return _matrix(zoom_x, zero, x_offset, zero, zoom_y, y_offset)

    def get_clipped_bbox(self, bounding_boxes, h_end, h_start, w_end, w_start):
        """Keras's helper: xyxy boxes clipped to a window, in the window's frame."""
        return boxes_math.clipped_window(bounding_boxes, h_end, h_start, w_end, w_start)

    def _move_boxes(self, bounding_boxes, transformation):
        # The output shows the input window [(0, 0), (width, height)] maps to: keep
        # what lies in it, then scale the window to the image (as Keras).
        height, width = self._input_size(transformation)
        transform = self.matrix(transformation)
        w_start, h_start = self.get_transformed_x_y(0, 0, transform)
        w_end, h_end = self.get_transformed_x_y(width, height, transform)
        out = self.get_clipped_bbox(bounding_boxes, h_end, h_start, w_end, w_start)
        x1, y1, x2, y2 = ops.split(out["boxes"], 4, axis=-1)
        sx = ops.expand_dims(ops.divide(width, w_end - w_start), -1)
        sy = ops.expand_dims(ops.divide(height, h_end - h_start), -1)
        out["boxes"] = ops.concatenate([x1 * sx, y1 * sy, x2 * sx, y2 * sy], axis=-1)
        return out

    def get_config(self):
        return {
            **super().get_config(),
            "height_factor": self.height_factor,
            "width_factor": self.width_factor,
        }


@image_doc("geometry")
class RandomShear(_RandomAffine):
    """Shears images along x and y by random amounts during training (Keras's matrix).

    The output pixel ``(x, y)`` samples the input at ``(x + sx * y, y + sy * x)``,
    with ``sx`` drawn from `x_factor`, ``sy`` from `y_factor`, and both signs
    flipped together for a random half of the images. Bounding boxes and
    segmentation masks of a data dict follow the images.

    Args:
        x_factor: a number ``f`` in [0, 1] draws ``sx`` from ``[-f, f]``; a pair
            of numbers in [0, 1] gives the range.
        y_factor: the same for ``sy``.
        interpolation: ``"bilinear"`` or ``"nearest"``.
        fill_mode: how the area outside the input is filled: ``"reflect"``,
            ``"wrap"``, ``"constant"`` or ``"nearest"``.
        fill_value: the value outside the input with ``fill_mode="constant"``.
        {image arguments}

    Example:
        >>> import numpy as np
        >>> images = np.random.default_rng(0).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
        >>> np.allclose(np.asarray(RandomShear(x_factor=0.0, y_factor=0.0)(images)), images)
        True
        >>> np.asarray(RandomShear(x_factor=0.3, y_factor=0.3, seed=1)(images)).shape
        (2, 4, 4, 3)
    """

    def __init__(
        self,
        x_factor=0.0,
        y_factor=0.0,
        interpolation="bilinear",
        fill_mode="reflect",
        fill_value=0.0,
        data_format=None,
        seed=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_RandomAffine.__init__, locals()))
        self._factor_args = (x_factor, y_factor)
        self.x_factor = symmetric_range(x_factor, "x_factor", "RandomShear", low=0.0)
        self.y_factor = symmetric_range(y_factor, "y_factor", "RandomShear", low=0.0)

    def draw(self, images):
        batch = ops.shape(images)[0]
        flip = ops.where(ops.greater(self._uniform((batch, 1)), 0.5), -1.0, 1.0)
        shear_y = self._uniform((batch, 1), *self.y_factor)
        shear_x = self._uniform((batch, 1), *self.x_factor)
        shear = ops.multiply(ops.concatenate([shear_x, shear_y], axis=1), flip)
        return {"shear_factor": shear, "input_shape": tuple(images.shape)}

    def matrix(self, transformation):
        shear = ops.convert_to_tensor(transformation["shear_factor"])
        shear_x, shear_y = shear[:, 0], shear[:, 1]
        one, zero = ops.ones_like(shear_x), ops.zeros_like(shear_x)
        return _matrix(one, shear_x, zero, shear_y, one, zero)

    def get_shifted_bbox(self, bounding_boxes, w_shift_factor, h_shift_factor):
        """Keras's helper: xyxy boxes moved by ``(-w_shift_factor, -h_shift_factor)``."""
        return boxes_math.shifted(bounding_boxes, w_shift_factor, h_shift_factor)

    def get_config(self):
        # The arguments as given: Keras writes the (low, high) pairs, which its own
        # [0, 1] check then refuses when the config is loaded.
        x_factor, y_factor = self._factor_args
        return {**super().get_config(), "x_factor": x_factor, "y_factor": y_factor}
