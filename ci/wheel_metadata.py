"""Read built wheels and check that their internal dependencies carry version ranges.

Used by the CI matrix (every wheel) and by ``ci/release`` (one package).
Standard library only: it runs before any environment exists.
"""

from __future__ import annotations

import re
import sys
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*)(;.*)?$")


@dataclass(frozen=True)
class WheelInfo:
    path: Path
    name: str
    version: str
    requires: tuple[str, ...]


def read_wheel(path: Path) -> WheelInfo:
    with zipfile.ZipFile(path) as zf:
        meta = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        if len(meta) != 1:
            raise ValueError(f"{path.name}: expected one .dist-info/METADATA, found {len(meta)}")
        msg = Parser().parsestr(zf.read(meta[0]).decode("utf-8"))
    return WheelInfo(path, msg["Name"], msg["Version"], tuple(msg.get_all("Requires-Dist") or ()))


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


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: wheel_metadata.py DIST_DIR", file=sys.stderr)
        return 2
    wheels = sorted(Path(argv[0]).glob("*.whl"))
    if not wheels:
        print(f"no wheels in {argv[0]}", file=sys.stderr)
        return 1
    problems = [p for w in wheels for p in range_problems(read_wheel(w))]
    for p in problems:
        print(p)
    print(f"{len(wheels)} wheels checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
