"""Check what a plain `pip install mb-framework` gives: run inside that environment.

Expects the default backend (jax) to be active, no optional engine and no
scikit-learn installed, and every mb package to come from a built wheel (not
from the source tree). Then runs what a new user runs first: `mb --version`, a
tiny `fit`, and `mb quickstart` for one epoch (not with --no-quickstart).
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import mb as keras


def _mb(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mb", *args], capture_output=True, text=True, check=True
    )


def tiny_fit() -> list[float]:
    """Ten epochs of a linear model on a noiseless line; the loss must fall."""
    x = np.linspace(-1, 1, 64, dtype="float32").reshape(-1, 1)
    y = 3 * x + 1
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=16, epochs=10, verbose=0)
    return [float(v) for v in history.history["loss"]]


def main(argv: list[str]) -> int:
    quickstart = "--no-quickstart" not in argv
    problems = []
    report = json.loads(_mb("info", "--json").stdout)
    if report["active_backend"] != "jax":
        problems.append(f"active backend is {report['active_backend']!r}, expected 'jax'")
    for extra in ("torch", "tensorflow", "tensorflow-cpu", "openvino", "scikit-learn"):
        try:
            importlib.metadata.version(extra)
        except importlib.metadata.PackageNotFoundError:
            continue
        problems.append(f"{extra} is installed by a plain `pip install mb-framework`")
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name.startswith("mb-") and dist.read_text("direct_url.json"):
            problems.append(f"{name} was installed from a folder or URL, not from a wheel")
    version = _mb("--version").stdout
    if f"mb-framework             {keras.__version__}" not in version:
        problems.append(f"`mb --version` does not list mb-framework:\n{version}")
    losses = tiny_fit()
    if not (np.isfinite(losses).all() and losses[-1] < 0.1 * losses[0]):
        problems.append(f"a tiny fit did not learn: losses {losses}")
    line = "not run"
    if quickstart:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "digits.keras"
            line = _mb("quickstart", "--epochs", "1", "--quiet", "--out", str(out)).stdout
            if not out.is_file():
                problems.append(f"`mb quickstart` saved nothing: {line}")
    for problem in problems:
        print(problem)
    print(
        f"plain install: backend {report['active_backend']}, devices {report['devices']}, "
        f"fit loss {losses[0]:.3f} -> {losses[-1]:.4f}, quickstart: {line.strip()}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
