"""The ``image`` contract module of the JAX backend: color, resizing, warps and filters.

``data_format=None`` means ``mb_ops.config.image_data_format()``; images are a
single image (rank 3) or a batch (rank 4) in that layout.
"""

from mb_backend_jax.image._color import hsv_to_rgb as hsv_to_rgb
from mb_backend_jax.image._color import rgb_to_grayscale as rgb_to_grayscale
from mb_backend_jax.image._color import rgb_to_hsv as rgb_to_hsv
from mb_backend_jax.image._common import (
    AFFINE_TRANSFORM_FILL_MODES as AFFINE_TRANSFORM_FILL_MODES,
)
from mb_backend_jax.image._common import (
    AFFINE_TRANSFORM_INTERPOLATIONS as AFFINE_TRANSFORM_INTERPOLATIONS,
)
from mb_backend_jax.image._common import MAP_COORDINATES_FILL_MODES as MAP_COORDINATES_FILL_MODES
from mb_backend_jax.image._common import RESIZE_INTERPOLATIONS as RESIZE_INTERPOLATIONS
from mb_backend_jax.image._common import (
    SCALE_AND_TRANSLATE_METHODS as SCALE_AND_TRANSLATE_METHODS,
)
from mb_backend_jax.image._filters import gaussian_blur as gaussian_blur
from mb_backend_jax.image._filters import sobel_edges as sobel_edges
from mb_backend_jax.image._geometry import affine_transform as affine_transform
from mb_backend_jax.image._geometry import compute_homography_matrix as compute_homography_matrix
from mb_backend_jax.image._geometry import elastic_transform as elastic_transform
from mb_backend_jax.image._geometry import map_coordinates as map_coordinates
from mb_backend_jax.image._geometry import perspective_transform as perspective_transform
from mb_backend_jax.image._resize import resize as resize
from mb_backend_jax.image._resize import scale_and_translate as scale_and_translate

UNSUPPORTED = {}
