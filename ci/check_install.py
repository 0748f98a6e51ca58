"""Check what a plain `pip install mb` gives: run inside that environment by the matrix.

Expects the default backend (jax) to be active and no optional engine installed.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys


def main() -> int:
    report = json.loads(
        subprocess.run(
            [sys.executable, "-m", "mb._cli", "info", "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    problems = []
    if report["active_backend"] != "jax":
        problems.append(f"active backend is {report['active_backend']!r}, expected 'jax'")
    for extra in ("torch", "tensorflow", "tensorflow-cpu", "openvino"):
        try:
            importlib.metadata.version(extra)
        except importlib.metadata.PackageNotFoundError:
            continue
        problems.append(f"{extra} is installed by a plain `pip install mb`; it belongs in an extra")
    for problem in problems:
        print(problem)
    print(f"plain install: backend {report['active_backend']}, devices {report['devices']}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
