"""The workspace's packages, their internal requirements, and fresh environments of wheels.

Shared by ``ci/release``, ``ci/wheel_install.py`` and the matrix. Standard library
only: it runs before any environment exists.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*)(;.*)?$")
_VERSION = re.compile(
    r"^(?P<release>\d+(?:\.\d+)*)(?:(?P<pre_l>a|b|rc)(?P<pre_n>\d+))?"
    r"(?:\.post(?P<post>\d+))?(?:\.dev(?P<dev>\d+))?$"
)


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Requirement:
    """One requirement of a workspace package on another: who, on what, where declared."""

    owner: str
    name: str
    specifier: str
    where: str  # "dependencies", "optional-dependencies.torch", "dependency-groups.dev"
    text: str


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    folder: Path
    project: dict
    groups: dict

    @property
    def import_names(self) -> list[str]:
        src = self.folder / "src"
        return sorted(p.parent.name for p in src.glob("*/__init__.py"))


def packages(root: Path = ROOT) -> dict[str, Package]:
    """Every package under packages/, by distribution name."""
    out = {}
    for pyproject in sorted((root / "packages").glob("*/pyproject.toml")):
        data = tomllib.loads(pyproject.read_text())
        project = data["project"]
        out[project["name"]] = Package(
            project["name"],
            project["version"],
            pyproject.parent,
            project,
            data.get("dependency-groups", {}),
        )
    return out


def parse_requirement(text: str) -> tuple[str, str]:
    match = _REQUIREMENT.match(text)
    if not match:
        raise ValueError(f"cannot parse the requirement {text!r}")
    return normalize(match[1]), match[3].strip().strip("()")


def requirements(package: Package) -> list[Requirement]:
    """Every requirement the package declares: dependencies, extras, dependency groups."""
    sources = [("dependencies", package.project.get("dependencies", []))]
    for extra, reqs in package.project.get("optional-dependencies", {}).items():
        sources.append((f"optional-dependencies.{extra}", reqs))
    for group, reqs in package.groups.items():
        sources.append((f"dependency-groups.{group}", [r for r in reqs if isinstance(r, str)]))
    out = []
    for where, reqs in sources:
        for text in reqs:
            name, spec = parse_requirement(text)
            out.append(Requirement(package.name, name, spec, where, text))
    return out


def _version_key(version: str) -> tuple:
    match = _VERSION.match(version.strip())
    if not match:
        raise ValueError(
            f"cannot compare the version {version!r}; use N.N.N with an optional "
            "aN/bN/rcN, .postN or .devN"
        )
    release = tuple(int(p) for p in match["release"].split("."))
    release += (0,) * (6 - len(release))
    if match["dev"] is not None and match["pre_l"] is None and match["post"] is None:
        pre = (-1, 0)  # 1.0.dev1 sorts before 1.0a1
    elif match["pre_l"] is not None:
        pre = ({"a": 0, "b": 1, "rc": 2}[match["pre_l"]], int(match["pre_n"]))
    else:
        pre = (3, 0)
    post = int(match["post"]) if match["post"] is not None else -1
    dev = int(match["dev"]) if match["dev"] is not None else 1 << 62
    return release, pre, post, dev


def _is_pre(version: str) -> bool:
    match = _VERSION.match(version)
    return bool(match and (match["pre_l"] or match["dev"]))


def admits(specifier: str, version: str) -> bool:
    """Whether a PEP 440 specifier such as '>=0.1,<0.2' admits `version`."""
    key = _version_key(version)
    for clause in filter(None, (c.strip() for c in specifier.split(","))):
        op, bound = re.match(r"(===|==|!=|~=|>=|<=|>|<)\s*(.+)", clause).groups()
        if bound.endswith(".*"):
            prefix = tuple(int(p) for p in bound[:-2].split("."))
            same = key[0][: len(prefix)] == prefix
            if (op == "==") != same:
                return False
            continue
        other = _version_key(bound)
        if op == "~=":
            parts = [int(p) for p in bound.split(".")[:-1]] or [int(bound)]
            upper = _version_key(".".join(map(str, [*parts[:-1], parts[-1] + 1])))
            ok = other <= key < upper
        elif op == "<" and not _is_pre(bound) and _is_pre(version):
            ok = key[0] < other[0]  # '<0.2' excludes 0.2.0rc1
        else:
            ok = {
                "==": key == other,
                "===": version == bound,
                "!=": key != other,
                ">=": key >= other,
                "<=": key <= other,
                ">": key > other,
                "<": key < other,
            }[op]
        if not ok:
            return False
    return True


def range_failures(name: str, version: str, root: Path = ROOT) -> list[str]:
    """Each declaration by another workspace package on `name` that excludes `version`."""
    failures = []
    for other in packages(root).values():
        if other.name == name:
            continue
        for req in requirements(other):
            if req.name == normalize(name) and req.specifier and not admits(req.specifier, version):
                failures.append(
                    f"{other.name} requires {req.text!r} ({req.where} of "
                    f"packages/{other.folder.name}/pyproject.toml), which excludes {name} "
                    f"{version}: widen that range, or release {other.name} with a new one"
                )
    return failures


def internal_test_requirements(package: Package, known: dict[str, Package]) -> list[str]:
    """Workspace packages that the package's `dev` group needs besides its own dependencies."""
    return [
        r.name
        for r in requirements(package)
        if r.where == "dependency-groups.dev" and r.name in {normalize(k) for k in known}
    ]


def run(cmd: list[str], cwd: Path = ROOT, env: dict | None = None, quiet: bool = False) -> None:
    """Runs a command, echoing it; raises CalledProcessError on failure."""
    print("$ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL if quiet else None)


def uv_command() -> list[str]:
    return os.environ.get("UV", "uv").split()


def base_python() -> str:
    """The interpreter to build fresh environments from (not a virtual environment's)."""
    return getattr(sys, "_base_executable", None) or sys.executable


def third_party_env(
    venv: Path, package: str, uv: list[str], root: Path = ROOT, dev: bool = False
) -> Path:
    """A fresh venv with the locked third-party requirements of `package` (no mb package).

    Taken from uv.lock (so from the uv cache, offline once it is warm); with `dev`, the
    package's `dev` dependency group too. Returns the venv's python.
    """
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["UV_PROJECT_ENVIRONMENT"] = str(venv)
    cmd = [*uv, "sync", "--frozen", "--quiet", "--package", package, "--no-install-workspace"]
    cmd += ["--python", base_python()]
    if not dev:
        cmd.append("--no-dev")
    shutil.rmtree(venv, ignore_errors=True)
    run(cmd, cwd=root, env=env)
    return venv / "bin" / "python"


def install_wheels(python: Path, find_links: list[Path], reqs: list[str], uv: list[str]) -> None:
    """Installs mb packages from built wheels only: no index, so a wrong name cannot pass.

    Without uv's cache: a wheel rebuilt under the same name and version (every build of
    0.1.0 before its release) would otherwise be served from the cache as it was first
    seen, and the tests would run against old code.
    """
    links = [arg for d in find_links for arg in ("--find-links", str(d))]
    cmd = [*uv, "pip", "install", "--quiet", "--no-cache", "--python", str(python), "--no-index"]
    run([*cmd, *links, *reqs])
