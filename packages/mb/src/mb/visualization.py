"""``mb.visualization`` (``keras.visualization``)."""

from mb_layers.visualization import draw_bounding_boxes as draw_bounding_boxes
from mb_layers.visualization import draw_segmentation_masks as draw_segmentation_masks
from mb_layers.visualization import plot_bounding_box_gallery as plot_bounding_box_gallery
from mb_layers.visualization import plot_image_gallery as plot_image_gallery
from mb_layers.visualization import plot_segmentation_mask_gallery as plot_segmentation_mask_gallery

__all__ = [
    "draw_bounding_boxes",
    "draw_segmentation_masks",
    "plot_bounding_box_gallery",
    "plot_image_gallery",
    "plot_segmentation_mask_gallery",
]
