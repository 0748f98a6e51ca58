"""The ``keras.ops.image`` backend functions on NumPy and SciPy.

``crop_images``, ``pad_images``, ``extract_patches``, ``extract_patches_3d`` and
``ssim`` are written once in mb_ops on top of other ops, as in Keras.
"""

from mb_backend_numpy.image._color import hsv_to_rgb as hsv_to_rgb
from mb_backend_numpy.image._color import rgb_to_grayscale as rgb_to_grayscale
from mb_backend_numpy.image._color import rgb_to_hsv as rgb_to_hsv
from mb_backend_numpy.image._filters import gaussian_blur as gaussian_blur
from mb_backend_numpy.image._filters import sobel_edges as sobel_edges
from mb_backend_numpy.image._geometry import affine_transform as affine_transform
from mb_backend_numpy.image._geometry import compute_homography_matrix as compute_homography_matrix
from mb_backend_numpy.image._geometry import elastic_transform as elastic_transform
from mb_backend_numpy.image._geometry import map_coordinates as map_coordinates
from mb_backend_numpy.image._geometry import perspective_transform as perspective_transform
from mb_backend_numpy.image._resize import resize as resize
from mb_backend_numpy.image._resize import scale_and_translate as scale_and_translate

# Every image backend function runs on NumPy/SciPy.
UNSUPPORTED = {}
