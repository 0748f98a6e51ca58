"""Layers that mix each image with another of the batch: `MixUp` and `CutMix`.

Both draw a permutation of the batch and a mixing weight per image from their
`SeedGenerator`, so they work in a functional model and under a compiled
function on every backend. Labels (one-hot or probabilities) are mixed with
the same weights as the images.
"""

from mb_graph import KerasTensor
from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._image_augmentation import factor_range
from mb_layers.layers._image_data import RandomImageDataLayer, _spec


def _mix(weight, x, partner):
    """``weight * x + (1 - weight) * partner`` with `weight` per image."""
    weight = ops.reshape(ops.cast(weight, x.dtype), (-1,) + (1,) * (len(x.shape) - 1))
    return ops.add(ops.multiply(weight, x), ops.multiply(ops.subtract(1.0, weight), partner))


class _Mixing(RandomImageDataLayer):
    def _permutation(self, batch):
        return random_ops.shuffle(ops.arange(batch, dtype="int32"), seed=self._seed())

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        permutation, weight = transformation["permutation"], transformation["weight"]
        labels = ops.cast(labels, self.compute_dtype)
        return _mix(weight, labels, ops.take(labels, permutation, axis=0))

    def labels_spec(self, labels):
        return KerasTensor(tuple(labels.shape), dtype=self.compute_dtype)


class MixUp(_Mixing):
    """MixUp: each image becomes ``w * image + (1 - w) * other`` in training.

    ``other`` is the image at the same place of a random permutation of the
    batch and ``w`` is drawn per image from ``Beta(alpha, alpha)``. Labels and
    segmentation masks are mixed with the same weights; bounding boxes of both
    images are kept (the boxes and their labels are concatenated along the box
    axis). In inference the data passes through.

    Args:
        alpha: the parameter of the Beta distribution (small values keep the
            mixes close to one of the two images).
        data_format, bounding_box_format, seed: as the other image layers.

    Example:
        >>> import numpy as np
        >>> images = np.stack([np.zeros((4, 4, 3)), np.ones((4, 4, 3))]).astype("float32")
        >>> out = np.asarray(MixUp(alpha=0.5, seed=1)(images, training=True))
        >>> bool(out.min() >= 0.0 and out.max() <= 1.0)
        True
    """

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = (0.0, 0.0)  # Keras's base attribute; unused
        self.alpha = alpha

    def draw(self, images):
        batch = ops.shape(images)[0]
        permutation = self._permutation(batch)
        weight = random_ops.beta((batch,), self.alpha, self.alpha, seed=self._seed())
        return {"permutation": permutation, "weight": weight}

    def _mixed(self, x, transformation, training):
        """`x` (images or masks) mixed with its permuted partners, in training."""
        if not training or transformation is None:
            return x
        x = ops.cast(x, self.compute_dtype)
        partner = ops.take(x, transformation["permutation"], axis=0)
        return _mix(transformation["weight"], x, partner)

    def transform_images(self, images, transformation=None, training=True):
        return self._mixed(images, transformation, training)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._mixed(segmentation_masks, transformation, training)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training or transformation is None:
            return bounding_boxes
        permutation = transformation["permutation"]
        out = dict(bounding_boxes)
        for key in ("boxes", "labels"):
            partner = ops.take(bounding_boxes[key], permutation, axis=0)
            out[key] = ops.concatenate([bounding_boxes[key], partner], axis=1)
        return out

    def bounding_boxes_spec(self, bounding_boxes):
        out = {key: _spec(value) for key, value in bounding_boxes.items()}
        for key in ("boxes", "labels"):
            shape = list(bounding_boxes[key].shape)
            shape[1] = None if shape[1] is None else 2 * shape[1]
            out[key] = KerasTensor(tuple(shape), dtype=bounding_boxes[key].dtype)
        return out

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class CutMix(_Mixing):
    """CutMix: pastes a random rectangle of another image of the batch into each image.

    In training, per image a weight ``w`` is drawn from ``Beta(a, a)`` (``a``
    drawn once per batch from `factor`); the rectangle has sides
    ``sqrt(1 - w)`` times the image's, at a random place, and comes from the
    image at the same place of a random permutation of the batch. Labels are
    mixed by the share of the image kept. Segmentation masks get the same
    rectangles; bounding boxes are not supported (as in Keras).

    Args:
        factor: the range of ``a``: ``f`` in [0, 1] means ``(0, f)``.
        seed, data_format: as the other image layers.

    Example:
        >>> import numpy as np
        >>> images = np.stack([np.zeros((8, 8, 1)), np.ones((8, 8, 1))]).astype("float32")
        >>> out = np.asarray(CutMix(seed=3)(images, training=True))
        >>> sorted(set(out.ravel().tolist())) in ([0.0], [1.0], [0.0, 1.0])
        True
    """

    _BOXES_SUPPORTED = False

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = factor_range(factor, (0, 1), "factor", "CutMix")
        first = self.data_format == "channels_first"
        self.height_axis, self.width_axis, self.channel_axis = (
            (-2, -1, -3) if first else (-3, -2, -1)
        )

    def _bounds(self, batch, length, ratio):
        """Start and end (float pixel positions) of a window of `ratio` of `length`."""
        crop = ops.cast(ops.multiply(ratio, float(length)), self.compute_dtype)
        start = ops.multiply(
            self._uniform((batch,), dtype=self.compute_dtype), ops.subtract(float(length), crop)
        )
        return start, ops.add(start, crop)

    def draw(self, images):
        h_axis, w_axis, c_axis = self._spatial_axes()
        height, width = images.shape[h_axis], images.shape[w_axis]
        if height is None or width is None:
            raise ValueError(
                f"CutMix needs images of known height and width. Received: "
                f"shape={tuple(images.shape)}."
            )
        batch = ops.shape(images)[0]
        dtype = self.compute_dtype
        alpha = ops.add(self._uniform((), *self.factor, dtype=dtype), 1e-6)
        weight = random_ops.beta((batch,), alpha, alpha, seed=self._seed(), dtype=dtype)
        ratio = ops.sqrt(ops.subtract(1.0, weight))
        x0, x1 = self._bounds(batch, width, ratio)
        y0, y1 = self._bounds(batch, height, ratio)
        rows = ops.reshape(ops.arange(height, dtype=dtype), (1, height, 1))
        cols = ops.reshape(ops.arange(width, dtype=dtype), (1, 1, width))

        def per_image(t):
            return ops.reshape(t, (-1, 1, 1))

        inside = ops.logical_and(
            ops.logical_and(ops.greater_equal(cols, per_image(x0)), ops.less(cols, per_image(x1))),
            ops.logical_and(ops.greater_equal(rows, per_image(y0)), ops.less(rows, per_image(y1))),
        )
        kept = ops.subtract(
            1.0,
            ops.divide(
                ops.multiply(ops.subtract(x1, x0), ops.subtract(y1, y0)), float(width * height)
            ),
        )
        return {
            "permutation": self._permutation(batch),
            "mask": ops.expand_dims(inside, c_axis),
            "weight": kept,
        }

    def transform_images(self, images, transformation=None, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        partner = ops.take(images, transformation["permutation"], axis=0)
        return ops.where(transformation["mask"], partner, images)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        partner = ops.take(segmentation_masks, transformation["permutation"], axis=0)
        return ops.where(transformation["mask"], partner, segmentation_masks)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
