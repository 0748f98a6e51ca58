"""Shared helpers of the image ops: layouts, batching and option checks."""

from mb_backend_jax.nn._common import data_format_of as data_format_of
from mb_ops import numpy_shaped

RESIZE_INTERPOLATIONS = numpy_shaped.RESIZE_INTERPOLATIONS
AFFINE_TRANSFORM_INTERPOLATIONS = {"nearest": 0, "bilinear": 1}
AFFINE_TRANSFORM_FILL_MODES = {"constant", "nearest", "wrap", "mirror", "reflect"}
MAP_COORDINATES_FILL_MODES = {"constant", "nearest", "wrap", "mirror", "reflect"}
SCALE_AND_TRANSLATE_METHODS = {
    "linear", "bilinear", "trilinear", "cubic", "bicubic", "tricubic", "lanczos3", "lanczos5",
}  # fmt: skip


def check_rank(images, name):
    if images.ndim not in (3, 4):
        raise ValueError(
            f"{name} expects a single image (rank 3) or a batch (rank 4). "
            f"Received shape {images.shape}."
        )


def check_choice(value, choices, argument, name):
    if value not in choices:
        raise ValueError(f"{name} got {argument}={value!r}. Expected one of {sorted(choices)}.")


def to_batched_channels_last(images, data_format):
    """``images`` as (N, H, W, C), and a function that restores the input layout."""
    single = images.ndim == 3
    if single:
        images = images[None]
    if data_format == "channels_first":
        images = images.transpose(0, 2, 3, 1)

    def restore(out):
        if data_format == "channels_first":
            out = out.transpose(0, 3, 1, 2)
        return out[0] if single else out

    return images, restore
