"""Builds the GPU environment `.venv-gpu` from uv.lock (standard library only).

`uv sync --locked --extra gpu` cannot give a working GPU TensorFlow by itself: the CPU
default installs `tensorflow-cpu` (a hard dependency of mb-backend-tensorflow on Linux
x86-64), and the `gpu` extra adds `tensorflow[and-cuda]`, whose wheel holds the same
files. So this script exports the locked `gpu` environment (every pinned version and the
workspace packages, editable), drops `tensorflow-cpu` from it, and installs the rest into
`.venv-gpu`: jax's CUDA plugin, the CUDA build of TensorFlow with its CUDA libraries, and
torch (whose wheel is a CUDA build already). `ci/test --gpu` runs in it.

    python3 ci/gpu_env.py            # build or update .venv-gpu
    python3 ci/gpu_env.py --print    # only print the requirements it would install
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / os.environ.get("MB_GPU_VENV", ".venv-gpu")
UV = shlex.split(os.environ.get("UV", "uv"))
# Installed by the CPU default only; the CUDA build of the same package replaces it.
CPU_ONLY = {"tensorflow-cpu"}


def requirement_name(line: str) -> str | None:
    """The distribution name a requirements.txt line pins (``None`` for other lines)."""
    line = line.strip()
    if not line or line.startswith(("#", "-")):
        return None
    for stop in ("==", ";", "[", " ", "@"):
        line = line.split(stop, 1)[0]
    return line.strip().lower().replace("_", "-")


def gpu_requirements(exported: str) -> str:
    """The locked `gpu` requirements without the CPU-only builds they replace.

    Raises:
        RuntimeError: when the export lacks a GPU build the environment needs (the lock
            was made without the `gpu` extra).
    """
    kept = [ln for ln in exported.splitlines() if requirement_name(ln) not in CPU_ONLY]
    names = {requirement_name(ln) for ln in kept}
    missing = {"jax-cuda12-plugin", "tensorflow"} - names
    if missing:
        raise RuntimeError(
            f"uv.lock's `gpu` extra does not pin {sorted(missing)}: the lock is older than "
            "the extra. Run `uv lock` and commit uv.lock, then run this script again."
        )
    return "\n".join(kept) + "\n"


def export() -> str:
    cmd = [*UV, "export", "--locked", "--extra", "gpu", "--no-hashes", "--quiet"]
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--print", action="store_true", help="print the requirements only")
    args = parser.parse_args(argv)
    requirements = gpu_requirements(export())
    if args.print:
        sys.stdout.write(requirements)
        return 0
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as out:
        out.write(requirements)
    try:
        subprocess.run(
            [*UV, "venv", str(VENV), "--python", "3.11", "--allow-existing", "--quiet"],
            cwd=ROOT,
            check=True,
        )
        python = str(VENV / "bin" / "python")
        subprocess.run(
            [*UV, "pip", "install", "--python", python, "-r", out.name], cwd=ROOT, check=True
        )
    finally:
        os.unlink(out.name)
    print(f"GPU environment ready: {VENV}. Run `bash ci/test --gpu`.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
