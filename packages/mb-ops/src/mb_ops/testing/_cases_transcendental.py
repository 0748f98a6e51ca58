"""Conformance cases for the ``numpy_transcendental`` op group."""

from __future__ import annotations

import numpy as np

from mb_ops.testing._case import OpCase
from mb_ops.testing._case_forms import UnaryTable, binary_cases, unary_cases

_UNARY: UnaryTable = {
    "sin": (np.sin, (-3, 3), True, 4),
    "cos": (np.cos, (-3, 3), True, 4),
    "tan": (np.tan, (-1.2, 1.2), True, 8),
    "arcsin": (np.arcsin, (-0.9, 0.9), False, 4),
    "arccos": (np.arccos, (-0.9, 0.9), False, 4),
    "arctan": (np.arctan, (-3, 3), True, 4),
    "sinh": (np.sinh, (-2, 2), True, 4),
    "cosh": (np.cosh, (-2, 2), True, 4),
    "tanh": (np.tanh, (-3, 3), True, 4),
    "arcsinh": (np.arcsinh, (-3, 3), True, 4),
    "arccosh": (np.arccosh, (1.1, 4), False, 4),
    "arctanh": (np.arctanh, (-0.9, 0.9), False, 4),
    "exp": (np.exp, (-3, 3), True, 4),
    "exp2": (np.exp2, (-3, 3), True, 4),
    "expm1": (np.expm1, (-2, 2), True, 4),
    "log": (np.log, (0.1, 4), False, 4),
    "log10": (np.log10, (0.1, 4), False, 4),
    "log2": (np.log2, (0.1, 4), False, 4),
    "log1p": (np.log1p, (-0.5, 3), False, 4),
    "deg2rad": (np.deg2rad, (-180, 180), False, 2),
    "rad2deg": (np.rad2deg, (-3, 3), False, 2),
    "sinc": (np.sinc, (-3, 3), False, 8),
    "i0": (np.i0, (-3, 3), False, 8),
}

_BINARY = {
    "arctan2": np.arctan2,
    "hypot": np.hypot,
    "logaddexp": np.logaddexp,
    "logaddexp2": np.logaddexp2,
}


def transcendental_cases() -> list[OpCase]:
    """Every case of the ``numpy_transcendental`` group."""
    return [*unary_cases(_UNARY, bfloat16=("exp", "tanh")), *binary_cases(_BINARY)]
