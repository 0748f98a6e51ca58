"""Image ops on torch, in both layouts (``data_format=None`` means the configured one).

Names and signatures are those of Keras 3's ``keras/src/backend/torch/image.py``.
"""

from mb_backend_torch.image._color import hsv_to_rgb as hsv_to_rgb
from mb_backend_torch.image._color import rgb_to_grayscale as rgb_to_grayscale
from mb_backend_torch.image._color import rgb_to_hsv as rgb_to_hsv
from mb_backend_torch.image._filters import gaussian_blur as gaussian_blur
from mb_backend_torch.image._filters import sobel_edges as sobel_edges
from mb_backend_torch.image._geometry import affine_transform as affine_transform
from mb_backend_torch.image._geometry import compute_homography_matrix as compute_homography_matrix
from mb_backend_torch.image._geometry import elastic_transform as elastic_transform
from mb_backend_torch.image._geometry import map_coordinates as map_coordinates
from mb_backend_torch.image._geometry import perspective_transform as perspective_transform
from mb_backend_torch.image._resize import RESIZE_INTERPOLATIONS as RESIZE_INTERPOLATIONS
from mb_backend_torch.image._resize import resize as resize
from mb_backend_torch.image._resize import scale_and_translate as scale_and_translate
from mb_ops import numpy_shaped

AFFINE_TRANSFORM_INTERPOLATIONS = ("nearest", "bilinear")
AFFINE_TRANSFORM_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
SCALE_AND_TRANSLATE_METHODS = numpy_shaped.SCALE_AND_TRANSLATE_METHODS

# Every image op is supported on torch (map_coordinates: orders 0 and 1, as in Keras).
UNSUPPORTED = {}
