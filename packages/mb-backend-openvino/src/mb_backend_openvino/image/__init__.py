"""The ``keras.ops.image`` backend functions on OpenVINO."""

from mb_backend_openvino.image._color import hsv_to_rgb as hsv_to_rgb
from mb_backend_openvino.image._color import rgb_to_grayscale as rgb_to_grayscale
from mb_backend_openvino.image._color import rgb_to_hsv as rgb_to_hsv
from mb_backend_openvino.image._filters import gaussian_blur as gaussian_blur
from mb_backend_openvino.image._filters import sobel_edges as sobel_edges
from mb_backend_openvino.image._geometry import affine_transform as affine_transform
from mb_backend_openvino.image._geometry import (
    compute_homography_matrix as compute_homography_matrix,
)
from mb_backend_openvino.image._geometry import elastic_transform as elastic_transform
from mb_backend_openvino.image._geometry import map_coordinates as map_coordinates
from mb_backend_openvino.image._geometry import perspective_transform as perspective_transform
from mb_backend_openvino.image._resize import resize as resize
from mb_backend_openvino.image._resize import scale_and_translate as scale_and_translate

# Every image op runs on OpenVINO.
UNSUPPORTED = {}
