"""Argument rules of the image geometry ops, written once (pure Python over static shapes)."""

from __future__ import annotations

from typing import Any


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
