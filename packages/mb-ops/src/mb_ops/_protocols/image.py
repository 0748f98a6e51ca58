"""The ``image`` contract module: what every backend's ``image`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class Image(Protocol):
    """The names every backend's ``image`` module provides (or declares unsupported)."""

    def affine_transform(
        self,
        images: Tensor,
        transform: Any,
        interpolation: Any = "bilinear",
        fill_mode: Any = "constant",
        fill_value: Any = 0,
        data_format: Any = None,
    ) -> Any:
        """Apply affine transforms (8 parameters per image)."""
        ...

    def elastic_transform(
        self,
        images: Tensor,
        alpha: Any = 20.0,
        sigma: Any = 5.0,
        interpolation: Any = "bilinear",
        fill_mode: Any = "reflect",
        fill_value: Any = 0.0,
        seed: Any = None,
        data_format: Any = None,
    ) -> Any:
        """Random elastic deformation of images."""
        ...

    def gaussian_blur(
        self,
        images: Tensor,
        kernel_size: Any = (3, 3),
        sigma: Any = (1.0, 1.0),
        data_format: Any = None,
    ) -> Any:
        """Gaussian blur."""
        ...

    def hsv_to_rgb(self, images: Tensor, data_format: Any = None) -> Any:
        """Convert HSV images to RGB."""
        ...

    def map_coordinates(
        self,
        inputs: Tensor,
        coordinates: Tensor,
        order: Any,
        fill_mode: Any = "constant",
        fill_value: Any = 0,
    ) -> Any:
        """Sample ``inputs`` at ``coordinates`` by interpolation."""
        ...

    def perspective_transform(
        self,
        images: Tensor,
        start_points: Tensor,
        end_points: Tensor,
        interpolation: Any = "bilinear",
        fill_value: Any = 0,
        data_format: Any = None,
    ) -> Any:
        """Apply perspective transforms mapping ``start_points`` to ``end_points``."""
        ...

    def resize(
        self,
        images: Tensor,
        size: Any,
        interpolation: Any = "bilinear",
        antialias: Any = False,
        crop_to_aspect_ratio: Any = False,
        pad_to_aspect_ratio: Any = False,
        fill_mode: Any = "constant",
        fill_value: Any = 0.0,
        data_format: Any = None,
    ) -> Any:
        """Resize images to ``size`` (height, width)."""
        ...

    def rgb_to_grayscale(self, images: Tensor, data_format: Any = None) -> Any:
        """Convert RGB images to grayscale (one channel)."""
        ...

    def rgb_to_hsv(self, images: Tensor, data_format: Any = None) -> Any:
        """Convert RGB images to HSV."""
        ...

    def scale_and_translate(
        self,
        images: Tensor,
        output_shape: Any,
        scale: Any,
        translation: Any,
        spatial_dims: Any,
        method: Any,
        antialias: Any = True,
    ) -> Any:
        """Resample images with a scale and a translation (jax.image semantics)."""
        ...

    def sobel_edges(self, images: Tensor, data_format: Any = None) -> Any:
        """Sobel gradients (dy, dx) in a new last axis."""
        ...


class ImageOptional(Protocol):
    """Names a backend's ``image`` module may provide; mb uses them when present."""

    def compute_homography_matrix(self, start_points: Tensor, end_points: Tensor) -> Any:
        """The homographies mapping ``start_points`` onto ``end_points``."""
        ...
