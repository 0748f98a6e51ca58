"""Regenerate the public re-export modules from the op registry (dev tool).

Run: uv run --no-sync python packages/mb-ops/tools/gen_reexports.py
"""

import importlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1] / "src" / "mb_ops"

# public module -> private implementation modules
LAYOUT = {
    "numpy": [
        "numpy_arithmetic",
        "numpy_complex",
        "numpy_transcendental",
        "numpy_logic",
        "numpy_reductions",
        "numpy_order_statistics",
        "numpy_cumulative",
        "numpy_shape",
        "numpy_joining",
        "numpy_linear",
        "numpy_creation",
        "numpy_indexing",
    ],
    "nn": ["nn_activations", "nn_conv", "nn_losses", "nn_misc"],
    "math": ["math"],
    "linalg": ["linalg"],
    "image": ["image", "image_composed"],
    "core": ["core"],
    "einops": ["einops"],
}
DOCS = {
    "numpy": "NumPy-style ops (``keras.ops.numpy``).",
    "nn": "Neural-network ops (``keras.ops.nn``).",
    "math": "Math ops (top level of ``keras.ops``).",
    "linalg": "Linear-algebra ops (``keras.ops.linalg``).",
    "image": "Image ops (``keras.ops.image``).",
    "core": "Core ops: conversion, control flow, scatter and slices (top level of ``keras.ops``).",
    "einops": "``rearrange`` (einops-style axis rearrangement).",
}


def main() -> None:
    exported: dict = {}
    for public, privates in LAYOUT.items():
        lines = [f'"""{DOCS[public]}"""', ""]
        names = []
        for private in privates:
            path = ROOT / "_ops" / f"{private}.py"
            if not path.exists():
                continue
            mod = importlib.import_module(f"mb_ops._ops.{private}")
            extra = getattr(mod, "EXTRA_EXPORTS", ())
            for name, value in sorted(vars(mod).items()):
                defined_here = (
                    getattr(getattr(value, "operation_class", None), "__module__", None)
                    == mod.__name__
                )
                if not (defined_here or name in extra):
                    continue
                lines.append(f"from mb_ops._ops.{private} import {name} as {name}")
                names.append(name)
        if not names:
            continue
        lines += ["", "__all__ = ["] + [f'    "{n}",' for n in sorted(names)] + ["]", ""]
        (ROOT / f"{public}.py").write_text("\n".join(lines))
        print(public, len(names), file=sys.stderr)
        exported[public] = names
    write_ops_namespace(exported)


def write_ops_namespace(exported: dict) -> None:
    """``mb_ops.ops``: keras.ops' layout (top-level names + numpy/nn/linalg/image)."""
    lines = [
        '"""The namespace of ``keras.ops``: every top-level op and the four submodules."""',
        "",
    ]
    names = []
    for public in ("numpy", "nn", "math", "linalg", "core", "einops"):
        for name in exported.get(public, []):
            lines.append(f"from mb_ops.{public} import {name} as {name}")
            names.append(name)
    for sub in ("image", "linalg", "nn", "numpy"):
        lines.append(f"from mb_ops import {sub} as {sub}")
        names.append(sub)
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise SystemExit(f"duplicate top-level op names: {dupes}")
    # The public modules' own lists, not a copy of them (type checkers follow `+=`).
    publics = [p for p in ("numpy", "nn", "math", "linalg", "core", "einops") if exported.get(p)]
    lines += [
        f"from mb_ops import {p} as _{p}" for p in publics if p not in ("numpy", "nn", "linalg")
    ]
    lines += ["", '__all__ = ["image", "linalg", "nn", "numpy"]']
    lines += [
        f"__all__ += {p if p in ('numpy', 'nn', 'linalg') else '_' + p}.__all__" for p in publics
    ]
    lines += [""]
    (ROOT / "ops.py").write_text("\n".join(lines))
    print("ops", len(names), file=sys.stderr)


if __name__ == "__main__":
    main()
