"""Importing mb_data loads at most the engine of the chosen backend, never the others."""

import os
import subprocess
import sys

ENGINES = ("jax", "torch", "tensorflow", "openvino")


def test_import_under_numpy_loads_no_engine():
    code = f"import sys, mb_data; print([m for m in {ENGINES!r} if m in sys.modules])"
    env = {**os.environ, "MB_BACKEND": "numpy"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
