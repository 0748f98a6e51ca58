"""Release one package of the workspace from a tag ``<package>-v<version>``.

Checks that the tag's version is the package's version and that its CHANGELOG
has an entry for it, builds that package alone, and checks the wheel's metadata.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wheel_metadata import range_problems, read_wheel

ROOT = Path(__file__).resolve().parent.parent
_TAG = re.compile(r"^(?P<package>[a-z0-9][a-z0-9-]*?)-v(?P<version>\d+\.\d+\.\d+[0-9A-Za-z.+-]*)$")


class ReleaseError(Exception):
    pass


def parse_tag(tag: str) -> tuple[str, str]:
    match = _TAG.match(tag)
    if not match:
        raise ReleaseError(
            f"Tag {tag!r} is not of the form <package>-v<version>, e.g. mb-ops-v0.1.0."
        )
    return match["package"], match["version"]


def check(tag: str, root: Path = ROOT) -> tuple[str, str, Path]:
    package, version = parse_tag(tag)
    folder = root / "packages" / package
    if not (folder / "pyproject.toml").is_file():
        known = sorted(p.name for p in (root / "packages").iterdir() if p.is_dir())
        raise ReleaseError(
            f"Tag {tag!r} names {package!r}, which is not a package. Known: {', '.join(known)}."
        )
    project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    if project["version"] != version:
        raise ReleaseError(
            f"Tag {tag!r} says version {version}, but {package}'s pyproject.toml says "
            f"{project['version']}. Bump the version in packages/{package}/pyproject.toml "
            "or fix the tag."
        )
    changelog = (folder / "CHANGELOG.md").read_text() if (folder / "CHANGELOG.md").is_file() else ""
    if not re.search(rf"^##\s+\[?{re.escape(version)}\]?(\s|$)", changelog, re.MULTILINE):
        raise ReleaseError(
            f"packages/{package}/CHANGELOG.md has no entry for {version}. "
            f"Add a '## {version}' section."
        )
    return package, version, folder


def build(package: str, version: str, out: Path, uv: list[str]) -> Path:
    subprocess.run(
        [*uv, "build", "--package", package, "--out-dir", str(out), "--quiet"], cwd=ROOT, check=True
    )
    wheels = list(out.glob("*.whl"))
    if len(wheels) != 1:
        raise ReleaseError(f"Building {package} gave {len(wheels)} wheels, expected 1.")
    info = read_wheel(wheels[0])
    if info.name != package or info.version != version:
        raise ReleaseError(
            f"The wheel says {info.name} {info.version}, expected {package} {version}."
        )
    problems = range_problems(info)
    if problems:
        raise ReleaseError("; ".join(problems))
    if not list(out.glob("*.tar.gz")):
        raise ReleaseError(f"Building {package} gave no source distribution.")
    return wheels[0]


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: ci/release <package>-v<version> [OUT_DIR]", file=sys.stderr)
        return 2
    uv = os.environ.get("UV", "uv").split()
    try:
        package, version, _ = check(argv[0])
        out = Path(argv[1]) if len(argv) == 2 else Path(tempfile.mkdtemp(prefix=f"{package}-"))
        wheel = build(package, version, out, uv)
    except ReleaseError as exc:
        print(f"release {argv[0]}: {exc}", file=sys.stderr)
        return 1
    print(f"release {argv[0]}: built {wheel.name} and its sdist in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
