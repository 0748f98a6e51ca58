"""Importing mb_layers is cheap: it loads no engine until a backend is used."""

import subprocess
import sys

ENGINES = ("jax", "torch", "tensorflow", "openvino")


def test_import_loads_no_engine():
    code = f"import sys, mb_layers; print([m for m in {ENGINES!r} if m in sys.modules])"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
