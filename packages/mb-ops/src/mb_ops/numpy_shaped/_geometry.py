"""Argument rules of the image geometry ops, written once (pure Python over static shapes)."""

from __future__ import annotations

from typing import Any

INTERPOLATION_ORDERS = {"nearest": 0, "bilinear": 1}
"""Interpolation name -> spline order, for the affine, perspective and elastic warps."""
FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
"""How the warps and ``map_coordinates`` fill points outside the input."""


def check_interpolation(interpolation: str, fill_mode: str) -> None:
    """A warp's ``interpolation`` (nearest or bilinear) and ``fill_mode``.

    >>> check_interpolation("bilinear", "edge")
    Traceback (most recent call last):
    ...
    ValueError: fill_mode must be one of ('constant', 'nearest', 'wrap', 'mirror', 'reflect'). Received: 'edge'.
    """  # noqa: E501
    if interpolation not in INTERPOLATION_ORDERS:
        raise ValueError(
            f"interpolation must be one of {tuple(INTERPOLATION_ORDERS)}. "
            f"Received: interpolation={interpolation!r}."
        )
    check_fill_mode(fill_mode)


def check_fill_mode(fill_mode: str) -> None:
    """Refuses a ``fill_mode`` outside ``FILL_MODES``."""
    if fill_mode not in FILL_MODES:
        raise ValueError(f"fill_mode must be one of {FILL_MODES}. Received: {fill_mode!r}.")


def check_map_coordinates(shape: Any, coordinates: int, fill_mode: str, order: Any) -> None:
    """``map_coordinates``: one coordinate array per axis of ``shape``, a known fill mode,
    spline order 0 or 1."""
    if coordinates != len(shape):
        raise ValueError(
            "map_coordinates needs one coordinate array per input axis. Received: inputs of "
            f"shape {shape} and {coordinates} coordinate arrays."
        )
    check_fill_mode(fill_mode)
    if order not in (0, 1):
        raise ValueError(f"map_coordinates supports order 0 or 1. Received: order={order!r}.")


def check_affine_transform(shape: Any) -> None:
    """``affine_transform``'s ``transform``: rank 1 (one transform) or 2 (one per image)."""
    if len(shape) not in (1, 2):
        raise ValueError(
            "transform must have rank 1 (one transform) or 2 (one per image). "
            f"Received: transform.shape={shape}."
        )


def check_perspective_points(start_shape: Any, end_shape: Any) -> None:
    """``perspective_transform``'s corner arrays: (4, 2) or (N, 4, 2), both the same shape.

    >>> check_perspective_points((4, 2), (2, 4, 2))
    Traceback (most recent call last):
    ...
    ValueError: start_points and end_points must have the same shape. Received: (4, 2) and (2, 4, 2).
    """  # noqa: E501
    start_shape, end_shape = tuple(start_shape), tuple(end_shape)
    for name, shape in (("start_points", start_shape), ("end_points", end_shape)):
        if len(shape) not in (2, 3) or shape[-2:] != (4, 2):
            raise ValueError(f"{name} must have shape (4, 2) or (N, 4, 2). Received: {shape}.")
    if start_shape != end_shape:
        raise ValueError(
            "start_points and end_points must have the same shape. "
            f"Received: {start_shape} and {end_shape}."
        )
