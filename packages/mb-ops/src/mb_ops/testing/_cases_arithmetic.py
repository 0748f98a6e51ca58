"""Conformance cases for the ``numpy_arithmetic`` op group."""

from __future__ import annotations

import numpy as np

from mb_ops.testing._case import OpCase
from mb_ops.testing._case_forms import UnaryTable, binary_cases, int_binary_cases, unary_cases
from mb_ops.testing._inputs import rand

_UNARY: UnaryTable = {
    "sqrt": (np.sqrt, (0, 4), True, 2),
    "cbrt": (np.cbrt, (-4, 4), True, 4),
    "square": (np.square, (-3, 3), True, 1),
    "abs": (np.abs, (-3, 3), True, 1),
    "absolute": (np.absolute, (-3, 3), True, 1),
    "fabs": (np.fabs, (-3, 3), False, 1),
    "negative": (np.negative, (-3, 3), True, 1),
    "sign": (np.sign, (-3, 3), True, 1),
    "floor": (np.floor, (-3, 3), False, 1),
    "ceil": (np.ceil, (-3, 3), False, 1),
    "trunc": (np.trunc, (-3, 3), False, 1),
    "reciprocal": (np.reciprocal, (0.5, 3), False, 2),
    "round": (np.round, (-3, 3), False, 1),
}

_BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "true_divide": np.true_divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "fmax": np.fmax,
    "fmin": np.fmin,
}

_INT_BINARY = {"gcd": np.gcd, "lcm": np.lcm}

_INT_OR_FLOAT = {
    "power": np.power,
    "mod": np.mod,
    "floor_divide": np.floor_divide,
    "fmod": np.fmod,
}


def _int_or_float_cases() -> list[OpCase]:
    out = []
    for name, ref in _INT_OR_FLOAT.items():
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((2, 3), low=0.5, high=3), rand((3,), low=0.5, high=2, seed=2)),
                reference=ref,
                tol=8,
                label="float32",
            )
        )
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((2, 3), "int32", 1, 9), rand((3,), "int32", 1, 3, seed=2)),
                reference=ref,
                label="int32",
            )
        )
    return out


def _special_cases() -> list[OpCase]:
    return [
        OpCase(
            "numpy.round",
            (rand((4,), low=-30, high=30),),
            {"decimals": -1},
            reference=lambda x, decimals: np.round(x, decimals),
            label="decimals",
        ),
        OpCase(
            "numpy.divide_no_nan",
            (np.array([1.0, 2.0, 3.0], "float32"), np.array([2.0, 0.0, 4.0], "float32")),
            reference=lambda a, b: np.where(b == 0, 0.0, a / np.where(b == 0, 1, b)),
        ),
        OpCase(
            "numpy.heaviside",
            (np.array([-1.0, 0.0, 2.0], "float32"), np.float32(0.5)),
            reference=np.heaviside,
        ),
        OpCase("numpy.ldexp", (rand((3,)), rand((3,), "int32", 0, 3)), reference=np.ldexp),
        OpCase("numpy.clip", (rand((3, 4)), -0.5, 0.5), reference=np.clip),
        OpCase("numpy.clip", (rand((5,), "int32", -9, 9), -2, 3), reference=np.clip, label="int32"),
        OpCase(
            "numpy.nan_to_num",
            (np.array([np.nan, np.inf, -1.0], "float32"),),
            {"posinf": 9.0, "neginf": -9.0},
            reference=lambda x, posinf, neginf: np.nan_to_num(x, posinf=posinf, neginf=neginf),
        ),
    ]


def arithmetic_cases() -> list[OpCase]:
    """Every case of the ``numpy_arithmetic`` group."""
    return [
        *unary_cases(_UNARY, bfloat16=("sqrt", "abs", "negative", "square")),
        *binary_cases(_BINARY, bool_and_bfloat16=("add", "multiply", "maximum")),
        *int_binary_cases(_INT_BINARY),
        *_int_or_float_cases(),
        *_special_cases(),
    ]
