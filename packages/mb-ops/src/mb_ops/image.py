"""Image ops (``keras.ops.image``)."""

from mb_ops._ops.image import affine_transform as affine_transform
from mb_ops._ops.image import elastic_transform as elastic_transform
from mb_ops._ops.image import gaussian_blur as gaussian_blur
from mb_ops._ops.image import hsv_to_rgb as hsv_to_rgb
from mb_ops._ops.image import map_coordinates as map_coordinates
from mb_ops._ops.image import perspective_transform as perspective_transform
from mb_ops._ops.image import resize as resize
from mb_ops._ops.image import rgb_to_grayscale as rgb_to_grayscale
from mb_ops._ops.image import rgb_to_hsv as rgb_to_hsv
from mb_ops._ops.image import scale_and_translate as scale_and_translate
from mb_ops._ops.image import sobel_edges as sobel_edges
from mb_ops._ops.image_composed import crop_images as crop_images
from mb_ops._ops.image_composed import extract_patches as extract_patches
from mb_ops._ops.image_composed import extract_patches_3d as extract_patches_3d
from mb_ops._ops.image_composed import pad_images as pad_images
from mb_ops._ops.image_composed import ssim as ssim

__all__ = [
    "affine_transform",
    "crop_images",
    "elastic_transform",
    "extract_patches",
    "extract_patches_3d",
    "gaussian_blur",
    "hsv_to_rgb",
    "map_coordinates",
    "pad_images",
    "perspective_transform",
    "resize",
    "rgb_to_grayscale",
    "rgb_to_hsv",
    "scale_and_translate",
    "sobel_edges",
    "ssim",
]
