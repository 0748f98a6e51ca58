"""The standard forms an element-wise op is checked in: dtypes, broadcasting, empty, scalars.

Each op group's case file (``_cases_arithmetic``, ``_cases_transcendental``,
``_cases_logic``) lists its ops in a table and builds their cases here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mb_ops.testing._case import OpCase
from mb_ops.testing._inputs import rand

# name -> (reference, (low, high), accepts ints, tolerance factor)
UnaryTable = dict[str, tuple[Any, tuple[float, float], bool, int]]


def unary_cases(table: UnaryTable, bfloat16: tuple[str, ...] = ()) -> list[OpCase]:
    """float32, float16, empty and scalar forms (and int32 where the op accepts ints)."""
    out = []
    for name, (ref, (lo, hi), ints, tol) in table.items():
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
    for name in bfloat16:
        ref, (lo, hi), _, tol = table[name]
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((2, 3), "bfloat16", lo, hi),),
                reference=ref,
                tol=tol,
                label="bfloat16",
            )
        )
    return out


def binary_cases(table: dict[str, Any], bool_and_bfloat16: tuple[str, ...] = ()) -> list[OpCase]:
    """Broadcasting, mixed int/float, int8/int16, Python-scalar and empty forms."""
    out = []
    for name, ref in table.items():
        op = f"numpy.{name}"
        forms = [
            ((rand((2, 3), seed=1), rand((3,), seed=2, low=0.5)), "broadcast"),
            ((rand((2, 1, 3), seed=1), rand((4, 3), seed=2, low=0.5)), "broadcast3d"),
            ((rand((2, 3), "int32", 1, 9), rand((2, 3), seed=3, low=0.5)), "int_float"),
            ((rand((3,), "int8", 1, 9), rand((3,), "int16", 1, 9, seed=4)), "int8_int16"),
            ((rand((2, 3), "float16", 0.5), 2.0), "float16_pyfloat"),
            ((rand((2, 3), "int32", 1, 9), 3), "int_pyint"),
        ]
        out.extend(OpCase(op, args, reference=ref, tol=4, label=label) for args, label in forms)
        out.append(OpCase(op, (rand((0, 3)), rand((3,), low=0.5)), reference=ref, label="empty"))
    for name in bool_and_bfloat16:
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((4,), "bool"), rand((4,), "bool", seed=5)),
                reference=table[name],
                label="bool",
            )
        )
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((3,), "bfloat16"), rand((3,), "bfloat16", seed=6)),
                reference=table[name],
                tol=2,
                label="bfloat16",
            )
        )
    return out


def int_binary_cases(table: dict[str, Any]) -> list[OpCase]:
    """Two int32 tensors, broadcast."""
    return [
        OpCase(
            f"numpy.{name}",
            (rand((2, 3), "int32", 1, 30), rand((3,), "int32", 1, 30, seed=2)),
            reference=ref,
            label="int32",
        )
        for name, ref in table.items()
    ]
