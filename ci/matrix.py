"""The whole test matrix of mb, one leg at a time, with one summary line per leg.

Run through ``ci/test`` (which makes sure uv exists). Standard library only.
Legs: lock and lint checks, the workflow checks, wheels (built, checked, installed
from the wheels alone and through a local package index), each light package with
only its own declared requirements, each package's tests, the tooling tests, then
``tests/integration`` once per backend, each backend in its own processes.
``--list-json`` prints the legs grouped into the hosted CI's jobs.
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
# Skips per leg of the last run on this machine, printed next to this run's (a new
# skip is a test that stopped running); kept outside the checkout, which CI clones anew.
SKIP_HISTORY = Path(
    os.environ.get("MB_CI_SKIP_HISTORY", Path.home() / ".cache" / "mb-ci" / "skips.json")
)


@dataclass
class Leg:
    name: str
    commands: list[list[str]]
    env: dict[str, str] = field(default_factory=dict)
    junit: Path | None = None
    fatal: bool = False
    # The hosted CI job (.github/workflows/ci.yml) this leg runs in; a leg without one
    # gets a job of its own, named after it. Fatal legs run in every job.
    job: str = ""
    # A test leg that may select no test (`--slow`: a leg without slow tests passes).
    may_be_empty: bool = False

    def __post_init__(self) -> None:
        self.job = self.job or self.name


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


# Packages whose tests also run with only their own dependencies and their `dev` group
# (`uv run --isolated --package P`): the light ones, whose groups need no engine.
ISOLATED = {"mb-graph": None, "mb-ops": "numpy", "mb-backend-numpy": "numpy"}


def _isolated_leg(package: str, backend: str | None) -> Leg:
    """`uv run --isolated --package P pytest packages/P`: P's declared requirements only."""
    runner = [*UV, "run", "--isolated", "--frozen", "--package", package, "python"]
    env = {"MB_BACKEND": backend} if backend else {}
    leg = _pytest_leg(f"isolated {package}", [f"packages/{package}"], env, runner, False)
    leg.job = "isolated"
    return leg


def _wheel_legs(dist: Path, env: dict[str, str]) -> list[Leg]:
    """Build every wheel and sdist, check them, install the umbrella from them two ways."""
    script = str(ROOT / "ci" / "wheel_install.py")
    in_venv = [*UV, "run", "--frozen", "--no-sync", "python"]
    return [
        Leg(
            "wheels",
            [
                [*UV, "build", "--all-packages", "--quiet", "--out-dir", str(dist)],
                [sys.executable, str(ROOT / "ci" / "wheel_metadata.py"), str(dist)],
            ],
            job="wheels",
        ),
        # pip install --no-index --find-links DIST mb-framework, then a fit and the quickstart.
        Leg(
            "wheel install mb-framework",
            [[sys.executable, script, "find-links", str(dist)]],
            env=env,
            job="wheels",
        ),
        # uv publish to a pypiserver on 127.0.0.1, then install mb-framework from it.
        Leg("release dry run", [[*in_venv, script, "index", str(dist)]], env=env, job="wheels"),
    ]


def build_legs(only: set[str] | None) -> list[Leg]:
    default_home = _mb_home("default", {})
    base_env = {"MB_HOME": default_home}
    dist = WORK / "dist"
    in_venv = [*UV, "run", "--frozen", "--no-sync"]
    legs = [
        Leg("uv lock --check", [[*UV, "lock", "--check"]], job="lint"),
        Leg("uv sync", [[*UV, "sync", "--frozen", "--quiet"]], fatal=True),
        Leg("uv pip check", [[*UV, "pip", "check"]], job="lint"),
        Leg(
            "ruff",
            [[*in_venv, "ruff", "check", "."], [*in_venv, "ruff", "format", "--check", "."]],
            job="lint",
        ),
        Leg("import-linter", [[*in_venv, "lint-imports"]], job="lint"),
        # Every backend module against mb_ops.contract's Protocols (ci/contract_types.py).
        Leg("typecheck", [[*in_venv, "basedpyright"]], job="lint"),
        _workflows_leg(base_env),
        _docs_leg(base_env),
        _doctests_leg(base_env),
        *_wheel_legs(dist, base_env),
        *(_isolated_leg(pkg, backend) for pkg, backend in ISOLATED.items()),
    ]
    # Every package has tests: one without a tests/ folder fails its leg (pytest finds nothing).
    for pkg in sorted(p.name for p in (ROOT / "packages").iterdir() if p.is_dir()):
        env = dict(base_env)
        job = "packages"
        if pkg.startswith("mb-backend-"):
            env["MB_BACKEND"] = pkg.removeprefix("mb-backend-")
            job = f"backend {env['MB_BACKEND']}"
        leg = _pytest_leg(f"package {pkg}", [f"packages/{pkg}"], env)
        leg.job = job
        legs.append(leg)
    tooling = _pytest_leg("tooling", ["tests/tooling"], base_env, parallel=False)
    tooling.job = "tooling"
    legs.append(tooling)
    for backend in BACKENDS:
        settings = BACKEND_SETTINGS.get(backend, {})
        env = {"MB_BACKEND": backend, "MB_HOME": _mb_home(backend, settings)}
        paths = ["tests/integration"]
        if backend != "jax":  # the `package mb` leg runs it on jax, the default backend
            # Keras's public surface differs by backend: checked on each one.
            paths.append("packages/mb/tests/test_keras_parity.py")
        leg = _pytest_leg(f"integration {backend}", paths, env)
        leg.job = f"backend {backend}"
        legs.append(leg)
    # `ci/test --gpu`'s legs on the CPU: the plumbing and the gpu tests' own logic.
    legs += gpu_legs(dry_run=True)
    if only:
        legs = [leg for leg in legs if leg.fatal or _selected(leg.name, only, legs)]
    return legs


def select_marks(legs: list[Leg], slow: bool) -> list[Leg]:
    """The tests marked `slow` left out of every test leg (`-m "not slow"`, ANDed with
    a leg's own `-m`), or, with ``slow``, only those tests, in the test legs alone (a
    leg that has none passes)."""
    chosen = []
    for leg in legs:
        if leg.junit is None:
            if not slow or leg.fatal:
                chosen.append(leg)
            continue
        for cmd in leg.commands:
            if "pytest" not in cmd:
                continue
            mark = "slow" if slow else "not slow"
            start = cmd.index("pytest") + 1  # (`python -m pytest`: its own -m comes before)
            if "-m" in cmd[start:]:
                at = cmd.index("-m", start) + 1
                cmd[at] = f"({cmd[at]}) and {mark}"
            else:
                cmd[start:start] = ["-m", mark]
        leg.may_be_empty = slow
        chosen.append(leg)
    return chosen


def _selected(name: str, only: set[str], legs: list[Leg]) -> bool:
    """`--only X` picks the leg named exactly X, else every leg whose name contains X."""
    names = {leg.name for leg in legs}
    return any(name == o if o in names else o in name for o in only)


def _docs_leg(env: dict[str, str]) -> Leg:
    """The documentation site: `mkdocs build --strict` (a broken link or reference, a
    docstring griffe cannot parse, fails it), then ci/docs_site.py checks what was built
    (the search index, no empty page, an entry for every op and every layer)."""
    site = str(WORK / "site")
    in_venv = [*UV, "run", "--frozen", "--no-sync"]
    env = {**env, "MB_BACKEND": "numpy", "NO_MKDOCS_2_WARNING": "1"}
    # Not --quiet: it hides the warnings from --strict too, and the build then passes.
    build = [*in_venv, "mkdocs", "build", "--strict", "--site-dir", site]
    check = [*in_venv, "python", str(ROOT / "ci" / "docs_site.py"), site]
    return Leg("docs", [build, check], env=env, job="docs")


def _doctests_leg(env: dict[str, str]) -> Leg:
    """Every docstring example of the public packages, run as a doctest on numpy (those
    that train run on jax): tests/docs/test_docstring_examples.py."""
    env = {**env, "MB_BACKEND": "numpy"}
    leg = _pytest_leg("doctests", ["tests/docs"], env, parallel=False)
    leg.job = "docs"
    return leg


def _workflows_leg(env: dict[str, str]) -> Leg:
    """actionlint (with shellcheck) on .github/workflows, then the tests that parse them."""
    leg = _pytest_leg("workflows", ["tests/tooling/test_workflows.py"], env, parallel=False)
    leg.commands.insert(0, [*UV, "run", "--frozen", "--no-sync", "actionlint"])
    leg.job = "lint"
    return leg


def plan(legs: list[Leg]) -> dict:
    """What `--list-json` prints: every leg with its job, and the jobs in order.

    The hosted CI's test job runs one job per entry of "jobs", each calling
    `bash ci/test --only LEG` for every leg it lists.
    """
    jobs: dict[str, list[str]] = {}
    for leg in legs:
        if not leg.fatal:
            jobs.setdefault(leg.job, []).append(leg.name)
    return {
        "legs": [{"name": leg.name, "job": leg.job, "fatal": leg.fatal} for leg in legs],
        "jobs": [{"job": job, "only": names} for job, names in jobs.items()],
    }


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
            if code == 5 and leg.may_be_empty:  # pytest: no test selected
                continue
            if code != 0:
                out.write(f"exit status {code}\n")
                ok = False
                break
    passed, failed, skipped = _count(leg.junit)
    if leg.junit is not None and ok and passed == 0 and not leg.may_be_empty:
        ok = False  # a test leg that ran no test is a failure, not a pass
    return Result(leg, ok, time.perf_counter() - start, passed, failed, skipped, log)


GPU_BACKENDS = ("jax", "torch", "tensorflow")
GPU_VENV = ROOT / os.environ.get("MB_GPU_VENV", ".venv-gpu")


def gpu_legs(dry_run: bool) -> list[Leg]:
    """The accelerator legs of `ci/test --gpu`, one per trainable engine.

    Each leg first checks that the engine sees a GPU (`ci/gpu_check.py`), then runs the
    tests marked `gpu` (the integration ones and the backend package's own) and the whole
    integration suite on the device, in the GPU environment that `ci/gpu_env.py` builds.
    `dry_run` runs the same legs in the ordinary environment on the CPU: the check may
    find only the CPU, the integration `gpu` tests run on the CPU device
    (MB_GPU_DRY_RUN), and the integration suite is left to the CPU matrix, which runs it.
    """
    python = (
        [*UV, "run", "--frozen", "--no-sync", "python"]
        if dry_run
        else [str(GPU_VENV / "bin" / "python")]
    )
    legs = []
    for backend in GPU_BACKENDS:
        name = f"gpu {'dry run ' if dry_run else ''}{backend}"
        env = {"MB_BACKEND": backend, "MB_HOME": _mb_home(f"gpu-{backend}", {})}
        env["MB_GPU_DRY_RUN" if dry_run else "MB_REQUIRE_GPU"] = "1"
        paths = ["tests/integration", f"packages/mb-backend-{backend}/tests"]
        leg = _pytest_leg(name, paths, env, python, parallel=False)
        # The dry run leaves out the slow gpu tests (minutes on the CPU; run on GPUs only).
        marks = "gpu and not slow" if dry_run else "gpu or integration"
        leg.commands[0][-len(paths) : -len(paths)] = ["-m", marks]
        check = [*python, str(ROOT / "ci" / "gpu_check.py"), *(["--allow-cpu"] if dry_run else [])]
        leg.commands.insert(0, check)
        leg.job = "gpu dry run" if dry_run else "gpu"
        legs.append(leg)
    return legs


def run_gpu(dry_run: bool, only: set[str] | None) -> int:
    """`ci/test --gpu [--dry-run]`: the accelerator legs; 1 if any fails."""
    if not dry_run and not (GPU_VENV / "bin" / "python").exists():
        print(
            f"ci/test --gpu: no GPU environment at {GPU_VENV}. Build it from uv.lock with "
            "`python3 ci/gpu_env.py` (on a machine with an NVIDIA driver), or check the "
            "plumbing on the CPU with `bash ci/test --gpu --dry-run`.",
            file=sys.stderr,
        )
        return 1
    legs = gpu_legs(dry_run)
    if only:
        legs = [leg for leg in legs if _selected(leg.name, only, legs)]
    results = [run_leg(leg) for leg in legs]
    for result in results:
        status = "ok    " if result.ok else "FAILED"
        counts = f"  {result.passed} passed, {result.failed} failed, {result.skipped} skipped"
        print(f"leg {result.leg.name:<34} {status} {result.seconds:7.1f}s{counts}", flush=True)
    failed = [r.leg.name for r in results if not r.ok]
    print(f"gpu matrix: {len(results)} legs, failed legs: {', '.join(failed) or 'none'}")
    return 1 if failed or not results else 0


def _last_skips() -> dict[str, int]:
    try:
        return json.loads(SKIP_HISTORY.read_text())
    except (OSError, ValueError):
        return {}


def _save_skips(history: dict[str, int], results: list[Result]) -> None:
    history.update({r.leg.name: r.skipped for r in results if r.leg.junit is not None})
    try:
        SKIP_HISTORY.parent.mkdir(parents=True, exist_ok=True)
        SKIP_HISTORY.write_text(json.dumps(history, indent=1, sort_keys=True))
    except OSError as error:
        print(f"matrix: could not record the skips in {SKIP_HISTORY}: {error}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Run mb's test matrix.")
    parser.add_argument(
        "--only",
        action="append",
        help="run only the leg of this exact name, or else the legs whose name contains this",
    )
    parser.add_argument(
        "--list-json",
        action="store_true",
        help="print the legs and the CI jobs they group into as JSON, run nothing",
    )
    parser.add_argument("--gpu", action="store_true", help="run the legs that need an accelerator")
    parser.add_argument(
        "--dry-run", action="store_true", help="with --gpu: the same legs on the CPU"
    )
    parser.add_argument(
        "--slow",
        action="store_true",
        help="run only the tests marked slow, which the default matrix leaves out",
    )
    args = parser.parse_args(argv)
    if args.list_json:
        print(json.dumps(plan(build_legs(set(args.only) if args.only else None))))
        return 0
    if args.dry_run and not args.gpu:
        parser.error("--dry-run goes with --gpu")
    if args.gpu:
        return run_gpu(args.dry_run, set(args.only) if args.only else None)
    shutil.rmtree(WORK / "junit", ignore_errors=True)
    shutil.rmtree(WORK / "dist", ignore_errors=True)
    results: list[Result] = []
    last_skips = _last_skips()
    started = time.perf_counter()
    for leg in select_marks(build_legs(set(args.only) if args.only else None), args.slow):
        result = run_leg(leg)
        results.append(result)
        counts = ""
        if leg.junit is not None:
            counts = f"  {result.passed} passed, {result.failed} failed, {result.skipped} skipped"
            counts += f" (last run: {last_skips.get(leg.name, 'none')})"
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
    _save_skips(last_skips, results)
    return 1 if failed_legs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
