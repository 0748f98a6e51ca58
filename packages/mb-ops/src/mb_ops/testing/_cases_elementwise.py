"""Conformance cases for the element-wise numpy ops."""

from __future__ import annotations

import numpy as np

from mb_ops.testing._case import OpCase
from mb_ops.testing._inputs import rand

# name -> (reference, (low, high), accepts ints, tolerance factor)
_UNARY = {
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
    "deg2rad": (np.deg2rad, (-180, 180), False, 2),
    "rad2deg": (np.rad2deg, (-3, 3), False, 2),
    "sinc": (np.sinc, (-3, 3), False, 8),
    "i0": (np.i0, (-3, 3), False, 8),
    "isnan": (np.isnan, (-3, 3), True, 1),
    "isinf": (np.isinf, (-3, 3), True, 1),
    "isfinite": (np.isfinite, (-3, 3), True, 1),
    "signbit": (np.signbit, (-3, 3), False, 1),
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
    "arctan2": np.arctan2,
    "hypot": np.hypot,
    "logaddexp": np.logaddexp,
    "logaddexp2": np.logaddexp2,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less": np.less,
    "less_equal": np.less_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
}

_INT_BINARY = {
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
    "gcd": np.gcd,
    "lcm": np.lcm,
}

_LOGICAL = {
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}


def _unary_cases() -> list[OpCase]:
    out = []
    for name, (ref, (lo, hi), ints, tol) in _UNARY.items():
        op = f"numpy.{name}"
        out.append(
            OpCase(op, (rand((3, 4), low=lo, high=hi),), reference=ref, tol=tol, label="float32")
        )
        out.append(
            OpCase(op, (rand((2, 3), "float16", lo, hi),), reference=ref, tol=tol, label="float16")
        )
        out.append(OpCase(op, (rand((0, 3), low=lo, high=hi),), reference=ref, label="empty"))
        out.append(OpCase(op, (np.float32((lo + hi) / 3),), reference=ref, tol=tol, label="scalar"))
        if ints:
            out.append(
                OpCase(
                    op,
                    (rand((5,), "int32", max(lo, 0), hi),),
                    reference=ref,
                    tol=tol,
                    label="int32",
                )
            )
    for name in ("exp", "tanh", "sqrt", "abs", "negative", "square"):
        ref, (lo, hi), _, tol = _UNARY[name]
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((2, 3), "bfloat16", lo, hi),),
                reference=ref,
                tol=tol,
                label="bfloat16",
            )
        )
    out.append(OpCase("numpy.logical_not", (rand((3, 2), "bool"),), reference=np.logical_not))
    out.append(
        OpCase(
            "numpy.round",
            (rand((4,), low=-30, high=30),),
            {"decimals": -1},
            reference=lambda x, decimals: np.round(x, decimals),
            label="decimals",
        )
    )
    return out


def _binary_cases() -> list[OpCase]:
    out = []
    for name, ref in _BINARY.items():
        op = f"numpy.{name}"
        out.append(
            OpCase(
                op,
                (rand((2, 3), seed=1), rand((3,), seed=2, low=0.5)),
                reference=ref,
                tol=4,
                label="broadcast",
            )
        )
        out.append(
            OpCase(
                op,
                (rand((2, 1, 3), seed=1), rand((4, 3), seed=2, low=0.5)),
                reference=ref,
                tol=4,
                label="broadcast3d",
            )
        )
        out.append(
            OpCase(
                op,
                (rand((2, 3), "int32", 1, 9), rand((2, 3), seed=3, low=0.5)),
                reference=ref,
                tol=4,
                label="int_float",
            )
        )
        out.append(
            OpCase(
                op,
                (rand((3,), "int8", 1, 9), rand((3,), "int16", 1, 9, seed=4)),
                reference=ref,
                tol=4,
                label="int8_int16",
            )
        )
        out.append(
            OpCase(
                op,
                (rand((2, 3), "float16", 0.5), 2.0),
                reference=ref,
                tol=4,
                label="float16_pyfloat",
            )
        )
        out.append(
            OpCase(op, (rand((2, 3), "int32", 1, 9), 3), reference=ref, tol=4, label="int_pyint")
        )
        out.append(OpCase(op, (rand((0, 3)), rand((3,), low=0.5)), reference=ref, label="empty"))
    for name in ("add", "multiply", "maximum", "equal", "less"):
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((4,), "bool"), rand((4,), "bool", seed=5)),
                reference=_BINARY[name],
                label="bool",
            )
        )
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((3,), "bfloat16"), rand((3,), "bfloat16", seed=6)),
                reference=_BINARY[name],
                tol=2,
                label="bfloat16",
            )
        )
    for name in ("power", "mod", "floor_divide", "fmod"):
        ref = {"power": np.power, "mod": np.mod, "floor_divide": np.floor_divide, "fmod": np.fmod}[
            name
        ]
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
    for name, ref in _INT_BINARY.items():
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((2, 3), "int32", 1, 30), rand((3,), "int32", 1, 30, seed=2)),
                reference=ref,
                label="int32",
            )
        )
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
            "numpy.divide_no_nan",
            (np.array([1.0, 2.0, 3.0], "float32"), np.array([2.0, 0.0, 4.0], "float32")),
            reference=lambda a, b: np.where(b == 0, 0.0, a / np.where(b == 0, 1, b)),
        )
    )
    out.append(
        OpCase(
            "numpy.heaviside",
            (np.array([-1.0, 0.0, 2.0], "float32"), np.float32(0.5)),
            reference=np.heaviside,
        )
    )
    out.append(OpCase("numpy.ldexp", (rand((3,)), rand((3,), "int32", 0, 3)), reference=np.ldexp))
    out.append(OpCase("numpy.clip", (rand((3, 4)), -0.5, 0.5), reference=np.clip))
    out.append(
        OpCase("numpy.clip", (rand((5,), "int32", -9, 9), -2, 3), reference=np.clip, label="int32")
    )
    out.append(
        OpCase(
            "numpy.isclose",
            (np.array([1.0, 2.0, 3.0], "float32"), np.array([1.0, 2.1, 3.0], "float32")),
            reference=np.isclose,
        )
    )
    out.append(
        OpCase(
            "numpy.nan_to_num",
            (np.array([np.nan, np.inf, -1.0], "float32"),),
            {"posinf": 9.0, "neginf": -9.0},
            reference=lambda x, posinf, neginf: np.nan_to_num(x, posinf=posinf, neginf=neginf),
        )
    )
    return out


def elementwise_cases() -> list[OpCase]:
    """Unary and binary element-wise cases."""
    return [*_unary_cases(), *_binary_cases()]
