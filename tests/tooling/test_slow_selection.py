"""The default matrix leaves the `slow` tests out; `ci/test --slow` runs only them.

A test marked `heavy` in tests/integration is `slow` on every backend but jax.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import matrix  # noqa: E402


def _pytest_marks(leg):
    command = next(c for c in leg.commands if "pytest" in c)
    after = command[command.index("pytest") + 1 :]
    return after[after.index("-m") + 1] if "-m" in after else None


def test_every_test_leg_of_the_default_matrix_leaves_the_slow_tests_out():
    legs = matrix.select_marks(matrix.build_legs(None), slow=False)
    tests = [leg for leg in legs if leg.junit is not None]
    assert tests and all("not slow" in _pytest_marks(leg) for leg in tests)
    # The gpu dry run keeps its own selection, narrowed.
    dry = next(leg for leg in legs if leg.name == "gpu dry run jax")
    assert _pytest_marks(dry) == "(gpu and not slow) and not slow"
    # The lint, docs and wheel legs are still there, and a test leg that ran nothing fails.
    assert {"ruff", "docs", "wheels"} <= {leg.name for leg in legs}
    assert not any(leg.may_be_empty for leg in legs)


def test_the_slow_matrix_runs_only_the_slow_tests_and_passes_a_leg_without_any(tmp_path):
    legs = matrix.select_marks(matrix.build_legs(None), slow=True)
    assert {leg.name for leg in legs if leg.junit is None} == {"uv sync"}
    tests = [leg for leg in legs if leg.junit is not None]
    assert all(_pytest_marks(leg) in ("slow", "(gpu and not slow) and slow") for leg in tests)
    # pytest's "no test selected" (exit 5) is a pass there, not in the default matrix.
    empty = tmp_path / "test_nothing_slow.py"
    empty.write_text("def test_quick():\n    assert True\n")
    junit = tmp_path / "junit.xml"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += [f"--junitxml={junit}", "-m", "slow", str(empty)]
    leg = matrix.Leg("nothing slow", [command], junit=junit, may_be_empty=True)
    assert matrix.run_leg(leg).ok
    leg.may_be_empty = False
    assert not matrix.run_leg(leg).ok


def test_a_heavy_integration_test_is_slow_on_every_backend_but_jax():
    test = "tests/integration/test_bounding_boxes.py::test_every_helper_gives_keras_numbers"
    found = {}
    for backend in ("jax", "numpy"):
        env = {**os.environ, "MB_BACKEND": backend}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--co"]
        done = subprocess.run(
            [*command, "-m", "not slow", test],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        found[backend] = test in done.stdout
    assert found == {"jax": True, "numpy": False}, json.dumps(found)
