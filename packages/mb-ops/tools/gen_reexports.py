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
        "numpy_elementwise",
        "numpy_reductions",
        "numpy_shape",
        "numpy_linear",
        "numpy_creation",
        "numpy_indexing",
    ],
    "nn": ["nn_activations", "nn_conv", "nn_losses", "nn_misc"],
    "math": ["math"],
    "linalg": ["linalg"],
    "image": ["image"],
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
                if not (hasattr(value, "operation_class") or name in extra):
                    continue
                lines.append(f"from mb_ops._ops.{private} import {name} as {name}")
                names.append(name)
        if not names:
            continue
        lines += ["", "__all__ = ["] + [f'    "{n}",' for n in sorted(names)] + ["]", ""]
        (ROOT / f"{public}.py").write_text("\n".join(lines))
        print(public, len(names), file=sys.stderr)


if __name__ == "__main__":
    main()
