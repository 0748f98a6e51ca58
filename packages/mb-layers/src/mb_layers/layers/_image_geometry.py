"""Image layers that flip, resize or crop: `RandomFlip`, `Resizing` and `CenterCrop`.

Each takes images or Keras 3's data dict (see `ImageDataLayer`): bounding boxes
move with the pixels (in the layer's ``bounding_box_format``) and segmentation
masks are transformed as the images, with nearest interpolation.
"""

from mb_layers._bounding_boxes.formats import convert_format
from mb_layers._ops import ops
from mb_layers.layers import _image_boxes as boxes_math
from mb_layers.layers._image_augmentation import RandomImageLayer
from mb_layers.layers._image_data import ImageDataLayer

_FLIP_MODES = ("horizontal", "vertical", "horizontal_and_vertical")


def _height_width(shape, data_format):
    """The height and width of an image shape (batched or not)."""
    if data_format == "channels_first":
        return shape[-2], shape[-1]
    return shape[-3], shape[-2]


def _image_shape(input_shape, height, width, data_format):
    shape = list(input_shape)
    h_axis = -2 if data_format == "channels_first" else -3
    shape[h_axis], shape[h_axis + 1] = height, width
    return tuple(shape)


def _resize_masks(masks, size, data_format, **kwargs):
    masks = ops.convert_to_tensor(masks)
    resized = ops.image.resize(
        ops.cast(masks, "float32"), size, interpolation="nearest", data_format=data_format, **kwargs
    )
    return ops.cast(resized, masks.dtype)


class RandomFlip(RandomImageLayer):
    """Flips images at random during training (identity in inference).

    As in Keras 3, one coin per image decides: with ``"horizontal_and_vertical"``
    a flipped image is flipped both ways. Boxes and masks flip with their image.

    Args:
        mode: ``"horizontal"``, ``"vertical"`` or ``"horizontal_and_vertical"``.
        seed: an int for reproducible flips.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        bounding_box_format: the format of the boxes of a data dict, e.g. ``"xyxy"``.

    Example:
        >>> import numpy as np
        >>> layer = RandomFlip("horizontal", bounding_box_format="xyxy")
        >>> data = {"images": np.zeros((1, 4, 8, 3)),
        ...         "bounding_boxes": {"boxes": np.array([[[0.0, 0.0, 2.0, 4.0]]]),
        ...                            "labels": np.array([[1]])}}
        >>> flips = {"flips": np.array([[[[True]]]]), "input_shape": (1, 4, 8, 3)}
        >>> out = layer.transform_bounding_boxes(data["bounding_boxes"], flips)
        >>> np.asarray(out["boxes"]).tolist()
        [[[6.0, 0.0, 8.0, 4.0]]]
    """

    _GEOMETRIC = True

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in _FLIP_MODES:
            raise ValueError(
                "RandomFlip mode must be 'horizontal', 'vertical' or "
                f"'horizontal_and_vertical'. Received: mode={mode!r}."
            )
        self.mode = mode

    def draw(self, images):
        flips = ops.less_equal(self._uniform((ops.shape(images)[0], 1, 1, 1)), 0.5)
        return {"flips": flips, "input_shape": tuple(images.shape)}

    def warp(self, images, transformation, interpolation):
        flips = transformation["flips"]
        h_axis, w_axis, _ = self._spatial_axes()
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            images = ops.where(flips, ops.flip(images, axis=w_axis), images)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            images = ops.where(flips, ops.flip(images, axis=h_axis), images)
        return images

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training or transformation is None:
            return bounding_boxes
        height, width = _height_width(transformation["input_shape"], self.data_format)
        out = boxes_math.to_xyxy(bounding_boxes, self.bounding_box_format, height, width)
        flips = ops.squeeze(ops.convert_to_tensor(transformation["flips"]), axis=-1)
        x1, y1, x2, y2 = ops.split(out["boxes"], 4, axis=-1)
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            x1, x2 = ops.where(flips, width - x2, x1), ops.where(flips, width - x1, x2)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            y1, y2 = ops.where(flips, height - y2, y1), ops.where(flips, height - y1, y2)
        out["boxes"] = ops.concatenate([x1, y1, x2, y2], axis=-1)
        return boxes_math.from_xyxy(out, self.bounding_box_format, height, width)

    def get_config(self):
        return {**super().get_config(), "mode": self.mode}


class Resizing(ImageDataLayer):
    """Resizes images to ``(height, width)`` (optionally cropping or padding to aspect).

    Boxes are scaled (and shifted by the crop or the padding) with the image;
    masks are resized with nearest interpolation.

    Args:
        height, width: the output size.
        interpolation: ``"bilinear"``, ``"nearest"``, ``"bicubic"``, ...
        crop_to_aspect_ratio: crop the largest centered window of the output's
            aspect ratio first.
        pad_to_aspect_ratio: pad to the output's aspect ratio first.
        fill_mode, fill_value: the padding (``"constant"`` only).
        antialias: filter when downsampling.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        bounding_box_format: the format of the boxes of a data dict.

    Example:
        >>> import numpy as np
        >>> layer = Resizing(4, 4, bounding_box_format="xyxy")
        >>> boxes = {"boxes": np.array([[[2.0, 1.0, 6.0, 2.0]]]), "labels": np.array([[0]])}
        >>> out = layer({"images": np.zeros((1, 2, 8, 1)), "bounding_boxes": boxes})
        >>> np.asarray(out["bounding_boxes"]["boxes"]).tolist()
        [[[1.0, 2.0, 3.0, 4.0]]]
    """

    def __init__(
        self,
        height,
        width,
        interpolation="bilinear",
        crop_to_aspect_ratio=False,
        pad_to_aspect_ratio=False,
        fill_mode="constant",
        fill_value=0.0,
        antialias=False,
        data_format=None,
        **kwargs,
    ):
        super().__init__(data_format=data_format, **kwargs)
        self.height = height
        self.width = width
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.antialias = antialias
        channels_first = self.data_format == "channels_first"
        self.height_axis, self.width_axis = (-2, -1) if channels_first else (-3, -2)

    def get_random_transformation(self, data, training=True, seed=None):
        images = data["images"] if isinstance(data, dict) else data
        return _height_width(tuple(images.shape), self.data_format)

    def _aspect_kwargs(self):
        return {
            "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
            "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
        }

    def transform_images(self, images, transformation=None, training=True):
        return ops.image.resize(
            ops.cast(images, self.compute_dtype),
            (self.height, self.width),
            interpolation=self.interpolation,
            antialias=self.antialias,
            data_format=self.data_format,
            **self._aspect_kwargs(),
        )

    def transform_labels(self, labels, transformation=None, training=True):
        return labels

    def transform_segmentation_masks(self, segmentation_masks, transformation=None, training=True):
        return _resize_masks(
            segmentation_masks, (self.height, self.width), self.data_format, **self._aspect_kwargs()
        )

    def _scale_and_offset(self, height, width):
        """Keras's ``(scale_x, scale_y, x_offset, y_offset)`` from input to output pixels."""
        if self.pad_to_aspect_ratio:
            scale = min(self.height / height, self.width / width)
            return (
                scale,
                scale,
                (self.width - width * scale) // 2,
                (self.height - height * scale) // 2,
            )
        if self.crop_to_aspect_ratio:
            source, target = width / height, self.width / self.height
            new_width = self.height * source if source > target else self.width
            new_height = self.height if source > target else self.width / source
            return (
                new_width / width,
                new_height / height,
                -((new_width - self.width) // 2),
                -((new_height - self.height) // 2),
            )
        return self.width / width, self.height / height, 0.0, 0.0

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        height, width = transformation
        boxes = ops.convert_to_tensor(bounding_boxes["boxes"])
        # Padding boxes (all -1 or all 0) stay at zero, as in Keras.
        padding = ops.logical_or(ops.all(boxes == -1, axis=-1), ops.all(boxes == 0, axis=-1))
        out = boxes_math.to_xyxy(bounding_boxes, self.bounding_box_format, height, width)
        scale_x, scale_y, x_offset, y_offset = self._scale_and_offset(height, width)
        x1, y1, x2, y2 = ops.split(out["boxes"], 4, axis=-1)
        out["boxes"] = ops.concatenate(
            [x1 * scale_x + x_offset, y1 * scale_y + y_offset,
             x2 * scale_x + x_offset, y2 * scale_y + y_offset],
            axis=-1,
        )  # fmt: skip
        out = boxes_math.from_xyxy(out, "xyxy", self.height, self.width)
        out["boxes"] = ops.where(ops.expand_dims(padding, -1), 0.0, out["boxes"])
        out["boxes"] = convert_format(
            out["boxes"], "xyxy", self.bounding_box_format, self.height, self.width
        )
        return out

    def compute_output_shape(self, input_shape):
        return _image_shape(input_shape, self.height, self.width, self.data_format)

    def get_config(self):
        return {
            **super().get_config(),
            "height": self.height,
            "width": self.width,
            "interpolation": self.interpolation,
            "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
            "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
            "fill_mode": self.fill_mode,
            "fill_value": self.fill_value,
            "antialias": self.antialias,
        }


def center_window(height, width, target_height, target_width):
    """Keras's centered crop ``(top, left, crop_height, crop_width)`` of the target's
    aspect ratio, for an image not larger than the target in both dimensions."""
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    top, left = int(float(height - crop_height) / 2), int(float(width - crop_width) / 2)
    return top, left, crop_height, crop_width


def crop_boxes(layer, bounding_boxes, input_size, window, output_size):
    """Boxes of an image of `input_size` cropped to `window` ``(top, left, height,
    width)`` and resized to `output_size`, in `layer`'s box format."""
    (height, width), (top, left, crop_h, crop_w) = input_size, window
    out = boxes_math.to_xyxy(bounding_boxes, layer.bounding_box_format, height, width)
    out = boxes_math.clipped_window(out, top + crop_h, top, left + crop_w, left)
    out_h, out_w = output_size
    if (crop_h, crop_w) != (out_h, out_w):
        x1, y1, x2, y2 = ops.split(out["boxes"], 4, axis=-1)
        sx, sy = out_w / crop_w, out_h / crop_h
        out["boxes"] = ops.concatenate([x1 * sx, y1 * sy, x2 * sx, y2 * sy], axis=-1)
    return boxes_math.from_xyxy(out, layer.bounding_box_format, out_h, out_w)


class CenterCrop(ImageDataLayer):
    """Crops the center ``(height, width)`` of images (resizing up when they are smaller).

    The layer is deterministic: training and inference crop alike. Boxes are
    cut to the window (and scaled when the image is resized); masks are
    cropped likewise, with nearest interpolation.

    Args:
        height: the output height.
        width: the output width.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        **kwargs: ``bounding_box_format`` (needed for a dict with boxes, e.g.
            ``"xyxy"``) and the base layer's keyword arguments (``name``, ``dtype``).

    Call arguments:
        data: images ``(batch, height, width, channels)`` (``channels_first``:
            ``(batch, channels, height, width)``), one image, or a dict with
            ``"images"`` and any of ``"labels"``, ``"bounding_boxes"`` and
            ``"segmentation_masks"``.

    Returns:
        The same structure, the images ``(batch, height, width, channels)``.

    Example:
        >>> import numpy as np
        >>> image = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> np.asarray(CenterCrop(2, 2)(image))[0, :, :, 0].tolist()
        [[5.0, 6.0], [9.0, 10.0]]
        >>> np.asarray(CenterCrop(2, 2)(np.zeros((2, 5, 6, 3)))).shape
        (2, 2, 2, 3)
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = height
        self.width = width

    def get_random_transformation(self, data, training=True, seed=None):
        images = data["images"] if isinstance(data, dict) else data
        return {"input_shape": tuple(images.shape)}

    def _crop(self, x, interpolation):
        h, w = _height_width(tuple(x.shape), self.data_format)
        if h < self.height or w < self.width:
            resized = ops.image.resize(
                ops.cast(x, "float32") if interpolation == "nearest" else x,
                (self.height, self.width),
                interpolation=interpolation,
                crop_to_aspect_ratio=True,
                data_format=self.data_format,
            )
            return ops.cast(resized, x.dtype)
        top, left = (h - self.height) // 2, (w - self.width) // 2
        h_axis = len(x.shape) - (2 if self.data_format == "channels_first" else 3)
        index = [slice(None)] * len(x.shape)
        index[h_axis] = slice(top, top + self.height)
        index[h_axis + 1] = slice(left, left + self.width)
        return x[tuple(index)]

    def transform_images(self, images, transformation=None, training=True):
        return self._crop(ops.cast(images, self.compute_dtype), "bilinear")

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._crop(ops.convert_to_tensor(segmentation_masks), "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        height, width = _height_width(transformation["input_shape"], self.data_format)
        if height >= self.height and width >= self.width:
            top, left = int((height - self.height) / 2), int((width - self.width) / 2)
            window = (top, left, self.height, self.width)
        else:
            window = center_window(height, width, self.height, self.width)
        return crop_boxes(self, bounding_boxes, (height, width), window, (self.height, self.width))

    def compute_output_shape(self, input_shape):
        return _image_shape(input_shape, self.height, self.width, self.data_format)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}
