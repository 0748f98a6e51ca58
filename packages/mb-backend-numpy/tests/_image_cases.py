"""Argument sets for the image backend functions, compared against Keras 3."""

import numpy as np
from _cases import RNG, floats

IMGS = RNG.uniform(0, 1, size=(2, 8, 7, 3)).astype("float32")
IMG_CF = np.moveaxis(IMGS, -1, 1).copy()
SHIFT = np.array([1.0, 0.1, -1.5, 0.2, 0.9, 2.0, 0.0, 0.0], "float32")
SHIFTS = np.stack([SHIFT, SHIFT * 0.5])
START = np.array([[0, 0], [6, 0], [0, 7], [6, 7]], "float32")
END = np.array([[1, 0], [6, 1], [0, 6], [5, 7]], "float32")

CASES = [
    ("rgb_to_grayscale", (IMGS,), {"data_format": "channels_last"}),
    ("rgb_to_grayscale", (IMG_CF,), {"data_format": "channels_first"}),
    ("rgb_to_hsv", (IMGS,), {"data_format": "channels_last"}),
    ("hsv_to_rgb", (IMGS,), {"data_format": "channels_last"}),
    ("resize", (IMGS, (5, 11)), {"data_format": "channels_last"}),
    ("resize", (IMGS, (4, 3)), {"antialias": True, "data_format": "channels_last"}),
    ("resize", (IMGS, (5, 11)), {"interpolation": "nearest", "data_format": "channels_last"}),
    ("resize", (IMGS, (9, 6)), {"interpolation": "bicubic", "data_format": "channels_last"}),
    ("resize", (IMGS, (9, 6)), {"interpolation": "lanczos3", "data_format": "channels_last"}),
    ("resize", (IMG_CF, (4, 4)), {"data_format": "channels_first"}),
    (
        "resize",
        (IMGS, (4, 6)),
        {"crop_to_aspect_ratio": True, "data_format": "channels_last"},
    ),
    ("resize", (IMGS, (4, 6)), {"pad_to_aspect_ratio": True, "data_format": "channels_last"}),
    (
        "resize",
        ((IMGS * 255).astype("uint8"), (5, 5)),
        {"data_format": "channels_last"},
    ),
    ("affine_transform", (IMGS, SHIFTS), {"data_format": "channels_last"}),
    (
        "affine_transform",
        # Offsets away from .5 ties, where float32 and float64 coordinates round apart.
        (IMGS, SHIFTS + np.array([0.0131, 0, 0.0213, 0, 0.0171, 0.0337, 0, 0], "float32")),
        {"interpolation": "nearest", "fill_mode": "nearest", "data_format": "channels_last"},
    ),
    (
        "affine_transform",
        (IMGS[0], SHIFT),
        {"fill_mode": "reflect", "data_format": "channels_last"},
    ),
    ("affine_transform", (IMGS, SHIFTS), {"fill_mode": "mirror", "data_format": "channels_last"}),
    ("affine_transform", (IMGS, SHIFTS), {"fill_mode": "wrap", "data_format": "channels_last"}),
    ("affine_transform", (IMG_CF, SHIFTS), {"fill_value": 0.5, "data_format": "channels_first"}),
    ("map_coordinates", (floats(5, 6), floats(2, 3, 4, low=-1, high=7), 1), {}),
    ("map_coordinates", (floats(5, 6), floats(2, 7, low=-1, high=7), 0), {}),
    (
        "map_coordinates",
        (floats(5, 6), floats(2, 7, low=-3, high=9), 1),
        {"fill_mode": "reflect"},
    ),
    (
        "map_coordinates",
        (floats(5, 6), floats(2, 7, low=-3, high=9), 1),
        {"fill_mode": "mirror"},
    ),
    ("perspective_transform", (IMGS, START, END), {"data_format": "channels_last"}),
    ("compute_homography_matrix", (START[None], END[None]), {}),
    ("gaussian_blur", (IMGS,), {"data_format": "channels_last"}),
    (
        "gaussian_blur",
        (IMGS,),
        {"kernel_size": (5, 3), "sigma": (2.0, 0.7), "data_format": "channels_last"},
    ),
    ("sobel_edges", (IMGS,), {"data_format": "channels_last"}),
    ("sobel_edges", (IMG_CF,), {"data_format": "channels_first"}),
    (
        "scale_and_translate",
        (
            IMGS,
            (2, 10, 5, 3),
            np.array([1.3, 0.7], "float32"),
            np.array([0.5, -1.0], "float32"),
            (1, 2),
            "linear",
        ),
        {},
    ),
    (
        "scale_and_translate",
        (
            IMGS,
            (2, 6, 9, 3),
            np.array([0.8, 1.2], "float32"),
            np.array([0.0, 0.5], "float32"),
            (1, 2),
            "cubic",
        ),
        {"antialias": False},
    ),
]
