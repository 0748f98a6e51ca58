"""Conformance cases for the ``numpy_logic`` op group."""

from __future__ import annotations

import numpy as np

from mb_ops.testing._case import OpCase
from mb_ops.testing._case_forms import UnaryTable, binary_cases, int_binary_cases, unary_cases
from mb_ops.testing._inputs import rand

_UNARY: UnaryTable = {
    "isnan": (np.isnan, (-3, 3), True, 1),
    "isinf": (np.isinf, (-3, 3), True, 1),
    "isfinite": (np.isfinite, (-3, 3), True, 1),
    "signbit": (np.signbit, (-3, 3), False, 1),
}

_COMPARISONS = {
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less": np.less,
    "less_equal": np.less_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
}

_BITWISE = {
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
}

_LOGICAL = {
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}


def _other_cases() -> list[OpCase]:
    out = [OpCase("numpy.logical_not", (rand((3, 2), "bool"),), reference=np.logical_not)]
    for name in ("left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift"):
        ref = np.left_shift if "left" in name else np.right_shift
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((4,), "int32", 1, 30), rand((4,), "int32", 0, 3, seed=2)),
                reference=ref,
            )
        )
    for name, ref in _LOGICAL.items():
        out.append(
            OpCase(
                f"numpy.{name}", (rand((2, 3), "bool"), rand((3,), "bool", seed=2)), reference=ref
            )
        )
    out.append(OpCase("numpy.bitwise_not", (rand((4,), "int32", -9, 9),), reference=np.invert))
    out.append(OpCase("numpy.bitwise_invert", (rand((4,), "int8", -9, 9),), reference=np.invert))
    out.append(
        OpCase(
            "numpy.isclose",
            (np.array([1.0, 2.0, 3.0], "float32"), np.array([1.0, 2.1, 3.0], "float32")),
            reference=np.isclose,
        )
    )
    return out


def logic_cases() -> list[OpCase]:
    """Every case of the ``numpy_logic`` group."""
    return [
        *unary_cases(_UNARY),
        *binary_cases(_COMPARISONS, bool_and_bfloat16=("equal", "less")),
        *int_binary_cases(_BITWISE),
        *_other_cases(),
    ]
