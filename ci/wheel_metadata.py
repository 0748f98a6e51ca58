"""Check built wheels and sdists: what a user downloads must carry what PyPI shows.

For every wheel: internal dependencies carry bounded version ranges; the root
LICENSE (byte for byte) is in ``.dist-info/licenses``; every top-level package
has a ``py.typed``; the metadata has a license expression, project URLs,
classifiers and keywords; the README (the package's page on the index) links
nothing by a relative path, which would be broken there. For every sdist: the
same LICENSE, a README and the ``py.typed`` files. Every wheel has its sdist.

Used by the CI matrix (every package) and by ``ci/release`` (one package).
Standard library only: it runs before any environment exists.
"""

from __future__ import annotations

import re
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from email.message import Message
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*)(;.*)?$")
# Markdown links and images whose target is neither a URL nor an anchor on the same page.
_RELATIVE_LINK = re.compile(r"!?\[[^\]]*\]\((?!https?://|mailto:|#)([^)\s]+)[^)]*\)")
# Files that live outside any package (the repository's design notes) must not be pointed at.
_OUTSIDE_FILES = re.compile(r"\bDESIGN\.md\b|\.\./shared/")


@dataclass(frozen=True)
class WheelInfo:
    path: Path
    name: str
    version: str
    requires: tuple[str, ...]
    metadata: Message | None = None
    files: tuple[str, ...] = ()


def read_wheel(path: Path) -> WheelInfo:
    with zipfile.ZipFile(path) as zf:
        names = tuple(zf.namelist())
        meta = [n for n in names if n.endswith(".dist-info/METADATA")]
        if len(meta) != 1:
            raise ValueError(f"{path.name}: expected one .dist-info/METADATA, found {len(meta)}")
        msg = Parser().parsestr(zf.read(meta[0]).decode("utf-8"))
    return WheelInfo(
        path, msg["Name"], msg["Version"], tuple(msg.get_all("Requires-Dist") or ()), msg, names
    )


def is_internal(name: str) -> bool:
    norm = name.lower().replace("_", "-")
    return norm == "mb" or norm.startswith("mb-")


def range_problems(info: WheelInfo) -> list[str]:
    """Internal requirements of a wheel that are not a bounded version range."""
    problems = []
    for req in info.requires:
        match = _REQUIREMENT.match(req)
        if not match:
            problems.append(f"{info.name}: cannot parse requirement {req!r}")
            continue
        name, _extras, spec, _marker = match.groups()
        if not is_internal(name):
            continue
        spec = spec.strip().strip("()")
        has_lower = bool(re.search(r">=|>|~=|==", spec))
        has_upper = bool(re.search(r"<|~=|==", spec))
        if not (has_lower and has_upper):
            problems.append(
                f"{info.name} {info.version}: internal dependency {req!r} needs a version range "
                f"such as '{name}>=0.1,<0.2' (found {spec or 'no version at all'})"
            )
    return problems


def readme_problems(owner: str, text: str) -> list[str]:
    """Links in a package README that are broken once it is the package's page on an index."""
    problems = [
        f"{owner}: the README links {target!r} by a relative path, which is broken on the "
        "package index; link a full https:// address or say it in words"
        for target in _RELATIVE_LINK.findall(text)
    ]
    for number, line in enumerate(text.splitlines(), 1):
        if _OUTSIDE_FILES.search(line):
            problems.append(
                f"{owner}: README line {number} points at a file outside the package "
                f"({line.strip()[:80]!r}); say what it holds instead"
            )
    return problems


def _license_text(root: Path) -> bytes:
    return (root / "LICENSE").read_bytes()


def content_problems(info: WheelInfo, root: Path = ROOT) -> list[str]:
    """LICENSE, py.typed, metadata fields and README links of one wheel."""
    problems = []
    who = f"{info.name} {info.version} wheel"
    licenses = [n for n in info.files if re.search(r"\.dist-info/licenses/LICENSE$", n)]
    if not licenses:
        problems.append(f"{who}: no LICENSE in .dist-info/licenses (add license-files)")
    else:
        with zipfile.ZipFile(info.path) as zf:
            if zf.read(licenses[0]) != _license_text(root):
                problems.append(f"{who}: its LICENSE differs from the repository's LICENSE")
    top = {n.split("/")[0] for n in info.files if "/" in n and ".dist-info/" not in n}
    for package in sorted(top):
        if f"{package}/py.typed" not in info.files:
            problems.append(f"{who}: {package}/py.typed is missing (the package is typed)")
    meta = info.metadata
    if meta is not None:
        if meta.get("License-Expression") != "Apache-2.0":
            problems.append(f"{who}: License-Expression is {meta.get('License-Expression')!r}")
        for field, what in (("Project-URL", "project URLs"), ("Classifier", "classifiers")):
            if not meta.get_all(field):
                problems.append(f"{who}: no {what} ([project] {field.lower()}s)")
        if not meta.get("Keywords"):
            problems.append(f"{who}: no keywords ([project] keywords)")
        problems += readme_problems(who, meta.get_payload() or "")
    return problems


def sdist_problems(path: Path, root: Path = ROOT) -> list[str]:
    """The sdist carries the LICENSE, the README and every package's py.typed."""
    with tarfile.open(path) as tf:
        names = tf.getnames()
        prefix = names[0].split("/")[0]
        problems = []
        license_member = f"{prefix}/LICENSE"
        if license_member not in names:
            problems.append(f"{path.name}: no LICENSE at the top of the sdist")
        else:
            data = tf.extractfile(license_member).read()
            if data != _license_text(root):
                problems.append(f"{path.name}: its LICENSE differs from the repository's LICENSE")
        if f"{prefix}/README.md" not in names:
            problems.append(f"{path.name}: no README.md")
    src = f"{prefix}/src/"
    packages = {n.split("/")[2] for n in names if n.startswith(src) and n.count("/") > 2}
    for package in sorted(packages):
        if f"{prefix}/src/{package}/py.typed" not in names:
            problems.append(f"{path.name}: src/{package}/py.typed is missing")
    return problems


def _sdist_stem(wheel: Path) -> str:
    name, version = wheel.name.split("-")[:2]
    return f"{name}-{version}"


def check_dist(dist: Path, root: Path = ROOT) -> tuple[int, list[str]]:
    """Every problem of the wheels and sdists in `dist`; (number of files checked, problems)."""
    wheels = sorted(dist.glob("*.whl"))
    sdists = sorted(dist.glob("*.tar.gz"))
    problems = []
    for wheel in wheels:
        info = read_wheel(wheel)
        problems += range_problems(info) + content_problems(info, root)
        if not (dist / f"{_sdist_stem(wheel)}.tar.gz").is_file():
            problems.append(f"{wheel.name}: no source distribution {_sdist_stem(wheel)}.tar.gz")
    for sdist in sdists:
        problems += sdist_problems(sdist, root)
    return len(wheels) + len(sdists), problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: wheel_metadata.py DIST_DIR", file=sys.stderr)
        return 2
    dist = Path(argv[0])
    if not list(dist.glob("*.whl")):
        print(f"no wheels in {argv[0]}", file=sys.stderr)
        return 1
    checked, problems = check_dist(dist)
    for p in problems:
        print(p)
    print(f"{checked} wheels and sdists checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
