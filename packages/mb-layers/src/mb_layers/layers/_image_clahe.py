"""`ContrastLimitedAdaptiveHistogramEqualization`: histogram equalization per image tile."""

from mb_layers._ops import ops
from mb_layers.layers._image_augmentation import rescale, value_range_pair
from mb_layers.layers._image_data import ImageDataLayer

_LEVELS = 256


class ContrastLimitedAdaptiveHistogramEqualization(ImageDataLayer):
    """Contrast-limited adaptive histogram equalization (CLAHE), in training and inference.

    Each image is cut into a `tile_grid_size` grid of tiles (padded
    symmetrically to a whole number of tiles); each tile's histogram of 256
    levels is clipped at ``clip_limit`` times the mean count, the clipped
    counts are spread evenly over all levels, and its cumulative distribution
    maps levels to new levels. A pixel's new level interpolates bilinearly
    between the maps of the four nearest tile centers. The arithmetic is
    Keras 3's; the result is cast back to the input's dtype, as Keras does.

    Args:
        value_range: the range of pixel values (mapped to [0, 255] for the levels).
        clip_limit: the histogram clip, a multiple of the mean count per level
            (0 or less: no clipping, plain adaptive equalization).
        tile_grid_size: ``(rows, columns)`` of tiles.
        data_format, bounding_box_format: as the other image layers.

    Example:
        >>> import numpy as np
        >>> image = np.tile(np.arange(0, 64, 4, dtype="float32"), (16, 1))[None, :, :, None]
        >>> layer = ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2))
        >>> out = np.asarray(layer(image))
        >>> bool(out.max() > image.max())
        True
    """

    def __init__(
        self,
        value_range=(0, 255),
        clip_limit=4.0,
        tile_grid_size=(8, 8),
        data_format=None,
        **kwargs,
    ):
        super().__init__(data_format=data_format, **kwargs)
        self.factor = (0.0, 0.0)  # Keras's base attribute; unused
        value_range_pair(value_range, "ContrastLimitedAdaptiveHistogramEqualization")
        if len(tuple(tile_grid_size)) != 2 or min(tile_grid_size) < 1:
            raise ValueError(
                "ContrastLimitedAdaptiveHistogramEqualization `tile_grid_size` must be two "
                f"positive integers (rows, columns). Received: tile_grid_size={tile_grid_size!r}."
            )
        self.value_range = value_range
        self.clip_limit = clip_limit
        self.tile_grid_size = tile_grid_size

    def transform_images(self, images, transformation=None, training=True):
        dtype = images.dtype
        if self._channels_first:
            images = ops.transpose(images, (0, 2, 3, 1))
        images = rescale(ops.cast(images, "float32"), self.value_range, (0, 255))
        images = rescale(self._equalize(images), (0, 255), self.value_range)
        images = ops.cast(images, dtype)
        return ops.transpose(images, (0, 3, 1, 2)) if self._channels_first else images

    def _tile_maps(self, padded, tile_h, tile_w):
        """The level map of each tile: ``(batch, rows, columns, channels, 256)`` float32."""
        channels = padded.shape[-1]
        rows, cols = self.tile_grid_size
        tiles = ops.reshape(padded, (-1, rows, tile_h, cols, tile_w, channels))
        tiles = ops.transpose(tiles, (0, 1, 3, 5, 2, 4))
        tiles = ops.reshape(tiles, (-1, rows, cols, channels, tile_h * tile_w))
        levels = ops.clip(ops.cast(tiles, "int32"), 0, _LEVELS - 1)
        # One histogram per (image, tile, channel): offset each group's levels by 256.
        groups = ops.reshape(ops.arange(ops.size(levels) // (tile_h * tile_w)), (-1, 1))
        flat = ops.reshape(levels, (-1, tile_h * tile_w))
        flat = ops.reshape(ops.add(flat, ops.multiply(groups, _LEVELS)), (-1, 1))
        total = ops.shape(groups)[0] * _LEVELS
        counts = ops.scatter(flat, ops.ones((ops.shape(flat)[0],), dtype="int32"), (total,))
        hists = ops.reshape(ops.cast(counts, "float32"), (-1, rows, cols, channels, _LEVELS))
        area = tile_h * tile_w
        if self.clip_limit > 0:
            limit = float(self.clip_limit * area / 256.0)
            clipped = ops.clip(hists, 0.0, limit)
            excess = ops.sum(ops.subtract(hists, clipped), axis=-1, keepdims=True)
            hists = ops.add(clipped, ops.divide(excess, 256.0))
        cdf = ops.cumsum(hists, axis=-1)
        cdf_min = ops.min(cdf, axis=-1, keepdims=True)
        denominator = ops.subtract(float(area), cdf_min)
        denominator = ops.where(ops.equal(denominator, 0.0), 1.0, denominator)
        maps = ops.clip(
            ops.divide(ops.multiply(ops.subtract(cdf, cdf_min), 255.0), denominator), 0.0, 255.0
        )
        # Repeat the edge tiles so that pixels beyond the outer centers use one map.
        maps = ops.concatenate([maps[:, :1], maps, maps[:, -1:]], axis=1)
        return ops.concatenate([maps[:, :, :1], maps, maps[:, :, -1:]], axis=2)

    @staticmethod
    def _neighbours(length, tile, tiles):
        """Per pixel position: the two tile indices (into the edge-padded maps) and the
        weight of the second."""
        grid = ops.add(
            ops.divide(ops.subtract(ops.arange(length, dtype="float32"), tile / 2.0), float(tile)),
            1.0,
        )
        first = ops.floor(grid)
        weight = ops.subtract(grid, first)
        second = ops.cast(ops.clip(ops.add(first, 1.0), 0, tiles + 1), "int32")
        first = ops.cast(ops.clip(first, 0, tiles + 1), "int32")
        return first, second, weight

    def _equalize(self, images):
        _, height, width, channels = images.shape
        if height is None or width is None or channels is None:
            raise ValueError(
                "ContrastLimitedAdaptiveHistogramEqualization needs images of known height, "
                f"width and channels. Received: shape={tuple(images.shape)}."
            )
        rows, cols = self.tile_grid_size
        tile_h, tile_w = -(-height // rows), -(-width // cols)
        pad_h, pad_w = tile_h * rows - height, tile_w * cols - width
        padded = images
        if pad_h or pad_w:
            padded = ops.pad(images, ((0, 0), (0, pad_h), (0, pad_w), (0, 0)), mode="symmetric")
        maps = self._tile_maps(padded, tile_h, tile_w)
        # Gather from the flat maps: index = ((b * (rows + 2) + y) * (cols + 2) + x) * C * 256
        #                                    + c * 256 + level.
        stride_x = channels * _LEVELS
        stride_y = stride_x * (cols + 2)
        stride_b = stride_y * (rows + 2)
        flat_maps = ops.reshape(maps, (-1,))
        levels = ops.cast(ops.clip(padded, 0.0, 255.0), "int32")
        batch_index = ops.reshape(ops.arange(ops.shape(padded)[0], dtype="int32"), (-1, 1, 1, 1))
        channel_index = ops.reshape(ops.arange(channels, dtype="int32"), (1, 1, 1, -1))
        base = ops.add(
            ops.add(ops.multiply(batch_index, stride_b), ops.multiply(channel_index, _LEVELS)),
            levels,
        )
        y0, y1, wy = self._neighbours(tile_h * rows, tile_h, rows)
        x0, x1, wx = self._neighbours(tile_w * cols, tile_w, cols)
        y0, y1, wy = (ops.reshape(t, (1, -1, 1, 1)) for t in (y0, y1, wy))
        x0, x1, wx = (ops.reshape(t, (1, 1, -1, 1)) for t in (x0, x1, wx))

        def corner(y, x):
            index = ops.add(base, ops.add(ops.multiply(y, stride_y), ops.multiply(x, stride_x)))
            return ops.take(flat_maps, index)

        top = ops.add(
            ops.multiply(corner(y0, x0), ops.subtract(1.0, wx)), ops.multiply(corner(y0, x1), wx)
        )
        bottom = ops.add(
            ops.multiply(corner(y1, x0), ops.subtract(1.0, wx)), ops.multiply(corner(y1, x1), wx)
        )
        result = ops.add(ops.multiply(top, ops.subtract(1.0, wy)), ops.multiply(bottom, wy))
        return result[:, :height, :width, :]

    def get_config(self):
        return {
            **super().get_config(),
            "value_range": self.value_range,
            "clip_limit": self.clip_limit,
            "tile_grid_size": self.tile_grid_size,
        }
