"""The base of the image layers that take Keras 3's data dicts, with bounding boxes.

Such a layer takes images (a batch ``(batch, height, width, channels)``, or one
image) or a dict with ``"images"`` and any of ``"labels"``, ``"bounding_boxes"``
(a dict of ``"boxes"`` ``(batch, boxes, 4)`` and ``"labels"`` ``(batch, boxes)``)
and ``"segmentation_masks"``; it returns the same structure, each part
transformed consistently (for example `MixUp` mixes the labels with the images'
weights). A dict with bounding boxes needs the layer's ``bounding_box_format``
(e.g. ``"xyxy"``), as in Keras.
"""

import contextlib

import numpy as np

from mb_graph import KerasTensor
from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._preprocessing import _Preprocessing
from mb_layers.layers._reshaping import _data_format
from mb_ops.random import SeedGenerator

_DATA_KEYS = ("images", "labels", "bounding_boxes", "segmentation_masks")


def _pad_ragged(rows, width, fill, dtype):
    """Per-image lists of different lengths as one array, padded with `fill`."""
    longest = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), longest, *width), fill, dtype=dtype)
    for i, row in enumerate(rows):
        if len(row):
            out[i, : len(row)] = np.asarray(row, dtype=dtype)
    return out


def densify_bounding_boxes(bounding_boxes, batched, layer):
    """``{"boxes", "labels"}`` as tensors: boxes float32 ``(batch, n, 4)``, labels int32.

    Per-image Python lists of different lengths are padded (boxes with 0,
    labels with -1), as Keras densifies ragged boxes.
    """
    if not isinstance(bounding_boxes, dict) or not {"boxes", "labels"} <= set(bounding_boxes):
        raise ValueError(
            f"{layer} expects `bounding_boxes` to be a dict with the keys 'boxes' and "
            f"'labels'. Received: {type(bounding_boxes).__name__} with keys "
            f"{sorted(bounding_boxes) if isinstance(bounding_boxes, dict) else None}."
        )
    boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
    if batched and isinstance(boxes, (list, tuple)) and len({len(b) for b in boxes}) > 1:
        boxes = _pad_ragged(boxes, (4,), 0.0, "float32")
        labels = _pad_ragged(labels, (), -1, "int32")
    out = dict(bounding_boxes)
    out["boxes"] = boxes if isinstance(boxes, KerasTensor) else ops.cast(boxes, "float32")
    out["labels"] = labels if isinstance(labels, KerasTensor) else ops.cast(labels, "int32")
    return out


def _spec(x, dtype=None):
    return KerasTensor(tuple(x.shape), dtype=dtype or x.dtype)


class ImageDataLayer(_Preprocessing):
    """Images or Keras's data dicts in, the same structure out.

    Subclasses implement `transform_images(images, transformation, training)` on a
    float batch in `data_format`, and override the other ``transform_*`` methods
    where the part changes (they pass it through by default). A random layer
    draws its numbers once per call in `get_random_transformation`, so every
    part of a dict sees the same draw.
    """

    _BOXES_SUPPORTED = True
    _BOXES_REASON = None

    def __init__(self, data_format=None, bounding_box_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.bounding_box_format = bounding_box_format

    @property
    def _channels_first(self):
        return self.data_format == "channels_first"

    def _spatial_axes(self):
        """``(height_axis, width_axis, channel_axis)`` of a batch."""
        return (2, 3, 1) if self._channels_first else (1, 2, 3)

    # ----- what subclasses implement -------------------------------------------------

    def get_random_transformation(self, data, training=True, seed=None):
        """The draws of one call (None for a deterministic layer); `data` is the batch
        of images or the data dict, `seed` a seed to use instead of the layer's."""
        return None

    def transform_images(self, images, transformation, training=True):
        raise NotImplementedError(f"{type(self).__name__} must implement transform_images.")

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return segmentation_masks

    # ----- one image instead of a batch (Keras's helpers) ----------------------------

    def transform_single_image(self, image, transformation, training=True):
        """`transform_images` on one image ``(height, width, channels)``."""
        images = ops.expand_dims(image, axis=0)
        out = self.transform_images(images, transformation=transformation, training=training)
        return ops.squeeze(out, axis=0)

    def transform_single_label(self, label, transformation, training=True):
        """`transform_labels` on the labels of one image."""
        labels = ops.expand_dims(label, axis=0)
        out = self.transform_labels(labels, transformation=transformation, training=training)
        return ops.squeeze(out, axis=0)

    def transform_single_bounding_box(self, bounding_box, transformation, training=True):
        """`transform_bounding_boxes` on the boxes of one image (``"boxes"`` ``(n, 4)``)."""
        batched = dict(bounding_box)
        for key in ("boxes", "labels"):
            if key in batched:
                batched[key] = ops.expand_dims(batched[key], axis=0)
        out = self.transform_bounding_boxes(
            batched, transformation=transformation, training=training
        )
        out = dict(out)
        for key in ("boxes", "labels"):
            if key in out:
                out[key] = ops.squeeze(out[key], axis=0)
        return out

    def transform_single_segmentation_mask(self, segmentation_mask, transformation, training=True):
        """`transform_segmentation_masks` on the mask of one image."""
        masks = ops.expand_dims(segmentation_mask, axis=0)
        out = self.transform_segmentation_masks(
            masks, transformation=transformation, training=training
        )
        return ops.squeeze(out, axis=0)

    # ----- the call ------------------------------------------------------------------

    def _batched(self, images):
        rank = len(images.shape)
        if rank not in (3, 4):
            raise ValueError(
                f"{type(self).__name__} expects images of rank 3 (one image) or 4 (a batch). "
                f"Received: shape={tuple(images.shape)}."
            )
        return rank == 4

    def call(self, data, training=True):
        # One transformation is drawn per call (on the batch: one image is a batch of
        # one) and every part of a data dict is transformed with it.
        if not isinstance(data, dict):
            images = ops.convert_to_tensor(data)
            batched = self._batched(images)
            images = images if batched else ops.expand_dims(images, 0)
            transformation = self.get_random_transformation(images, training=training)
            out = self.transform_images(images, transformation=transformation, training=training)
            return out if batched else ops.squeeze(out, axis=0)
        unknown = sorted(set(data) - set(_DATA_KEYS))
        if "images" not in data or unknown:
            raise ValueError(
                f"{type(self).__name__} takes a dict with the keys {list(_DATA_KEYS)} "
                f"('images' required). Received keys: {sorted(data)}."
            )
        images = ops.convert_to_tensor(data["images"])
        batched = self._batched(images)

        def batch(x):
            return x if batched else ops.expand_dims(x, 0)

        def unbatch(x):
            return x if batched else ops.squeeze(x, axis=0)

        images = batch(images)
        transformation = self.get_random_transformation(
            {**data, "images": images}, training=training
        )
        kwargs = {"transformation": transformation, "training": training}
        out = {"images": unbatch(self.transform_images(images, **kwargs))}
        if "labels" in data:
            labels = batch(ops.convert_to_tensor(data["labels"]))
            out["labels"] = unbatch(self.transform_labels(labels, **kwargs))
        if "segmentation_masks" in data:
            masks = batch(ops.convert_to_tensor(data["segmentation_masks"]))
            out["segmentation_masks"] = unbatch(self.transform_segmentation_masks(masks, **kwargs))
        if "bounding_boxes" in data:
            out["bounding_boxes"] = self._call_boxes(
                data["bounding_boxes"], batched, transformation, training
            )
        return out

    def _call_boxes(self, bounding_boxes, batched, transformation, training):
        name = type(self).__name__
        if not self.bounding_box_format:
            raise ValueError(
                f"{name} received 'bounding_boxes' but has no bounding box format. Pass "
                f"`bounding_box_format`, e.g. {name}(..., bounding_box_format='xyxy')."
            )
        if not self._BOXES_SUPPORTED:
            reason = self._BOXES_REASON or f"Keras 3's {name} does not either"
            raise NotImplementedError(
                f"{name} does not transform bounding boxes ({reason}). Apply it to the "
                "images (and labels) alone."
            )
        boxes = densify_bounding_boxes(bounding_boxes, batched, name)
        kwargs = {"transformation": transformation, "training": training}
        if batched:
            return self.transform_bounding_boxes(boxes, **kwargs)
        return self.transform_single_bounding_box(boxes, **kwargs)

    # ----- symbolic calls ------------------------------------------------------------

    def bounding_boxes_spec(self, bounding_boxes):
        """The KerasTensors of the transformed boxes (same shapes by default)."""
        return {key: _spec(value) for key, value in bounding_boxes.items()}

    def labels_spec(self, labels):
        return _spec(labels)

    def _images_spec(self, images):
        return KerasTensor(self.compute_output_shape(tuple(images.shape)), dtype=self.compute_dtype)

    def compute_output_spec(self, *args, **kwargs):
        # Keras 3's signature: the data comes first (or as `data=`/`inputs=`).
        data = args[0] if args else kwargs.get("data", kwargs.get("inputs"))
        if not isinstance(data, dict):
            return self._images_spec(data)
        out = {}
        for key, value in data.items():
            if key == "images":
                out[key] = self._images_spec(value)
            elif key == "labels":
                out[key] = self.labels_spec(value)
            elif key == "bounding_boxes":
                out[key] = self.bounding_boxes_spec(value)
            else:  # segmentation masks: resized like the images, their own dtype
                out[key] = KerasTensor(self.compute_output_shape(tuple(value.shape)), value.dtype)
        return out

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = {**super().get_config(), "data_format": self.data_format}
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config


class RandomImageDataLayer(ImageDataLayer):
    """An `ImageDataLayer` that draws from its own `SeedGenerator`."""

    _untracked_attributes = frozenset({"_draw_seed"})

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.generator = SeedGenerator(seed)
        self._draw_seed = None

    def _seed(self):
        """The seed of the current draws: the one given to get_random_transformation,
        else the layer's generator."""
        return self.generator if self._draw_seed is None else self._draw_seed

    def _uniform(self, shape, low=0.0, high=1.0, dtype=None):
        return random_ops.uniform(
            shape, minval=low, maxval=high, seed=self._seed(), dtype=dtype or "float32"
        )

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        images = data["images"] if isinstance(data, dict) else data
        if len(images.shape) == 3:  # one image: the draws of a batch of one
            images = ops.expand_dims(ops.convert_to_tensor(images), 0)
        if seed is None:  # the layer's generator (or the one `drawing_from` set)
            return self.draw(images)
        outer, self._draw_seed = self._draw_seed, seed
        try:
            return self.draw(images)
        finally:
            self._draw_seed = outer

    def draw(self, images):
        """The random transformation of one call on a batch of `images`."""
        raise NotImplementedError(f"{type(self).__name__} must implement draw(images).")

    def get_config(self):
        return {**super().get_config(), "seed": self.seed}


@contextlib.contextmanager
def drawing_from(layer, generator):
    """Within the block, `layer` draws its random numbers from `generator`: how
    `RandomColorJitter` drives its steps from its own generator, as Keras does."""
    layer._draw_seed = generator
    try:
        yield layer
    finally:
        layer._draw_seed = None


class MaxNumBoundingBoxes(ImageDataLayer):
    """Pads or cuts the bounding boxes of each image to exactly `max_number`.

    Boxes past `max_number` are dropped; missing ones are filled with
    `fill_value` (boxes and labels alike), so batches of boxes get a fixed
    shape ``(batch, max_number, 4)``. Images, labels and masks pass through.

    Args:
        max_number: the number of boxes per image.
        fill_value: the value of the padding boxes and labels.
        bounding_box_format: the format of the boxes (required with boxes).

    Example:
        >>> import numpy as np
        >>> layer = MaxNumBoundingBoxes(3, bounding_box_format="xyxy")
        >>> boxes = {"boxes": np.ones((1, 2, 4), "float32"), "labels": np.array([[1, 2]])}
        >>> out = layer({"images": np.zeros((1, 4, 4, 3), "float32"), "bounding_boxes": boxes})
        >>> np.asarray(out["bounding_boxes"]["labels"]).tolist()
        [[1, 2, -1]]
    """

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        self.factor = (0.0, 0.0)  # Keras's base attribute; unused
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)

    def transform_images(self, images, transformation=None, training=True):
        return images

    def transform_labels(self, labels, transformation=None, training=True):
        return labels

    def transform_segmentation_masks(self, segmentation_masks, transformation=None, training=True):
        return segmentation_masks

    def _fit(self, x):
        x = x[:, : self.max_number]
        missing = self.max_number - x.shape[1]
        if missing > 0:
            widths = [(0, 0), (0, missing)] + [(0, 0)] * (len(x.shape) - 2)
            x = ops.pad(x, widths, constant_values=self.fill_value)
        return x

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        extra = sorted(set(bounding_boxes) - {"boxes", "labels"})
        if extra:
            raise KeyError(
                f"MaxNumBoundingBoxes takes bounding boxes with the keys 'boxes' and 'labels' "
                f"only. Received the extra keys {extra}."
            )
        return {key: self._fit(value) for key, value in bounding_boxes.items()}

    def bounding_boxes_spec(self, bounding_boxes):
        out = {}
        for key, value in bounding_boxes.items():
            shape = list(value.shape)
            shape[1] = self.max_number
            out[key] = KerasTensor(tuple(shape), dtype=value.dtype)
        return out

    def compute_output_spec(self, *args, **kwargs):
        spec = super().compute_output_spec(*args, **kwargs)
        data = args[0] if args else kwargs.get("data", kwargs.get("inputs"))
        if isinstance(data, dict):
            spec["images"] = _spec(data["images"])
        else:
            spec = _spec(data)
        return spec

    def get_config(self):
        return {
            **super().get_config(),
            "max_number": self.max_number,
            "fill_value": self.fill_value,
        }
