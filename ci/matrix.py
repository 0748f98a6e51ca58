"""The whole test matrix of mb, one leg at a time, with one summary line per leg.

Run through ``ci/test`` (which makes sure uv exists). Standard library only.
Legs: lock and lint checks, wheels, the isolated installs of mb-graph and
mb-ops, each package's tests, the tooling tests, then ``tests/integration``
once per backend, each backend in its own processes.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".ci-work"
UV = shlex.split(os.environ.get("UV", "uv"))
BACKENDS = ("numpy", "jax", "torch", "tensorflow", "openvino")
# The torch leg runs channels_first: the layout most likely to expose layout bugs.
BACKEND_SETTINGS = {"torch": {"image_data_format": "channels_first"}}
XDIST = ["-p", "xdist", "-n", "2"]


@dataclass
class Leg:
    name: str
    commands: list[list[str]]
    env: dict[str, str] = field(default_factory=dict)
    junit: Path | None = None
    fatal: bool = False


@dataclass
class Result:
    leg: Leg
    ok: bool
    seconds: float
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    log: Path | None = None


def _mb_home(name: str, settings: dict) -> str:
    home = WORK / "homes" / name
    home.mkdir(parents=True, exist_ok=True)
    (home / "mb.json").write_text(json.dumps(settings))
    return str(home)


def _pytest_leg(
    name: str,
    paths: list[str],
    env: dict[str, str],
    python: list[str] | None = None,
    parallel: bool = True,
) -> Leg:
    junit = WORK / "junit" / f"{name.replace(':', '-').replace(' ', '-')}.xml"
    runner = python or [*UV, "run", "--frozen", "--no-sync", "python"]
    cmd = [*runner, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}"]
    if parallel:
        cmd += XDIST
    return Leg(name, [cmd + paths], env=env, junit=junit)


def _isolated_leg(name: str, install: list[str], test_paths: list[str], backend: str | None) -> Leg:
    venv = WORK / "venvs" / name
    python = str(venv / "bin" / "python")
    setup = [
        [*UV, "venv", "--quiet", "--clear", "--python", sys.executable, str(venv)],
        [*UV, "pip", "install", "--quiet", "--python", python, *install, "pytest"],
    ]
    env = {"MB_BACKEND": backend} if backend else {}
    leg = _pytest_leg(name, test_paths, env, python=[python], parallel=False)
    leg.commands = setup + leg.commands
    return leg


def _plain_install_leg() -> Leg:
    """`pip install mb` alone: the framework on jax, no optional engine."""
    venv = WORK / "venvs" / "plain-mb"
    python = str(venv / "bin" / "python")
    members = [
        "mb",
        "mb-graph",
        "mb-ops",
        "mb-backend-numpy",
        "mb-backend-jax",
        "mb-layers",
        "mb-data",
        "mb-train",
        "mb-saving",
        "mb-export",
    ]
    return Leg(
        "isolated pip install mb",
        [
            [*UV, "venv", "--quiet", "--clear", "--python", sys.executable, str(venv)],
            [
                *UV,
                "pip",
                "install",
                "--quiet",
                "--python",
                python,
                *(f"./packages/{m}" for m in members),
            ],
            [python, str(ROOT / "ci" / "check_install.py")],
        ],
        env={"MB_HOME": str(WORK / "homes" / "default")},
    )


def build_legs(only: set[str] | None) -> list[Leg]:
    default_home = _mb_home("default", {})
    base_env = {"MB_HOME": default_home}
    dist = WORK / "dist"
    legs = [
        Leg("uv lock --check", [[*UV, "lock", "--check"]]),
        Leg("uv sync", [[*UV, "sync", "--frozen", "--quiet"]], fatal=True),
        Leg("uv pip check", [[*UV, "pip", "check"]]),
        Leg(
            "ruff",
            [
                [*UV, "run", "--frozen", "--no-sync", "ruff", "check", "."],
                [*UV, "run", "--frozen", "--no-sync", "ruff", "format", "--check", "."],
            ],
        ),
        Leg("import-linter", [[*UV, "run", "--frozen", "--no-sync", "lint-imports"]]),
        Leg(
            "wheels",
            [
                [*UV, "build", "--all-packages", "--quiet", "--out-dir", str(dist)],
                [sys.executable, str(ROOT / "ci" / "wheel_metadata.py"), str(dist)],
            ],
        ),
        _isolated_leg(
            "isolated mb-graph", ["./packages/mb-graph"], ["packages/mb-graph/tests"], None
        ),
        _isolated_leg(
            "isolated mb-ops+numpy",
            ["./packages/mb-graph", "./packages/mb-ops", "./packages/mb-backend-numpy"],
            ["packages/mb-ops/tests", "packages/mb-backend-numpy/tests"],
            "numpy",
        ),
        _plain_install_leg(),
    ]
    # Every package has tests: one without a tests/ folder fails its leg (pytest finds nothing).
    for pkg in sorted(p.name for p in (ROOT / "packages").iterdir() if p.is_dir()):
        env = dict(base_env)
        if pkg.startswith("mb-backend-"):
            env["MB_BACKEND"] = pkg.removeprefix("mb-backend-")
        legs.append(_pytest_leg(f"package {pkg}", [f"packages/{pkg}"], env))
    legs.append(_pytest_leg("tooling", ["tests/tooling"], base_env, parallel=False))
    for backend in BACKENDS:
        settings = BACKEND_SETTINGS.get(backend, {})
        env = {"MB_BACKEND": backend, "MB_HOME": _mb_home(backend, settings)}
        legs.append(_pytest_leg(f"integration {backend}", ["tests/integration"], env))
    if only:
        legs = [leg for leg in legs if leg.fatal or any(o in leg.name for o in only)]
    return legs


def _count(junit: Path | None) -> tuple[int, int, int]:
    if junit is None or not junit.is_file():
        return 0, 0, 0
    root = ET.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = sum(int(s.get("tests", 0)) for s in suites)
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped = sum(int(s.get("skipped", 0)) for s in suites)
    return tests - failed - skipped, failed, skipped


def run_leg(leg: Leg) -> Result:
    log = WORK / "logs" / f"{leg.name.replace(' ', '-').replace(':', '-')}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("MB_BACKEND", "KERAS_BACKEND")}
    env.update(leg.env)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    start = time.perf_counter()
    ok = True
    with log.open("w") as out:
        for cmd in leg.commands:
            out.write(f"$ {shlex.join(cmd)}\n")
            out.flush()
            code = subprocess.run(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            ).returncode
            if code != 0:
                out.write(f"exit status {code}\n")
                ok = False
                break
    passed, failed, skipped = _count(leg.junit)
    if leg.junit is not None and ok and passed == 0:
        ok = False  # a test leg that ran no test is a failure, not a pass
    return Result(leg, ok, time.perf_counter() - start, passed, failed, skipped, log)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Run mb's test matrix.")
    parser.add_argument("--only", action="append", help="run only legs whose name contains this")
    args = parser.parse_args(argv)
    shutil.rmtree(WORK / "junit", ignore_errors=True)
    shutil.rmtree(WORK / "dist", ignore_errors=True)
    results: list[Result] = []
    started = time.perf_counter()
    for leg in build_legs(set(args.only) if args.only else None):
        result = run_leg(leg)
        results.append(result)
        counts = ""
        if leg.junit is not None:
            counts = f"  {result.passed} passed, {result.failed} failed, {result.skipped} skipped"
        status = "ok    " if result.ok else "FAILED"
        print(f"leg {leg.name:<34} {status} {result.seconds:7.1f}s{counts}", flush=True)
        if not result.ok:
            lines = result.log.read_text(errors="replace").splitlines()
            print("\n".join(f"    | {line}" for line in lines[-60:]), flush=True)
            if leg.fatal:
                break
    minutes = (time.perf_counter() - started) / 60
    failed_legs = [r.leg.name for r in results if not r.ok]
    passed = sum(r.passed for r in results)
    # A leg that failed without a failing test (ruff, a build) still counts as one failure.
    failed = sum(r.failed or (0 if r.ok else 1) for r in results)
    skipped = sum(r.skipped for r in results)
    failed_names = ", ".join(failed_legs) or "none"
    print(f"matrix: {len(results)} legs in {minutes:.1f} min, failed legs: {failed_names}")
    print(f"total: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed_legs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
