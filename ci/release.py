"""Release packages of the workspace, each as a tag ``<package>-v<version>``.

    ci/release mb-ops-v0.2.0 [more tags] [--out DIR]
    ci/release --all 0.1.0 [--out DIR]      every package whose version is 0.1.0

On a developer's machine (the tags do not exist yet) it:
1. refuses a tree with uncommitted changes;
2. checks each tag's version against the package's pyproject.toml;
3. moves the package's ``## Unreleased`` CHANGELOG entries under ``## <version> (<date>)``
   (merged with a ``## <version>`` section written before the first release);
4. checks that every range another workspace package declares on it (dependencies,
   extras, dependency groups) admits the new version, naming each one that does not;
5. builds its wheel and sdist into --out and checks them (ci/wheel_metadata.py), and
   builds the current wheels of every other package;
6. installs the new wheel with those wheels (no index) and the locked third-party
   requirements into a fresh venv, and runs the package's tests against it;
7. commits the CHANGELOGs ("release: ...") and creates an annotated tag per package.
If any step fails, the CHANGELOGs are restored and nothing is committed or tagged.

In CI (.github/workflows/release.yml), on the tagged commit (every tag exists and points
at HEAD), it checks that the CHANGELOG has the version's section and runs steps 2 and 4-6
without changing anything. --out then holds exactly the released files.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wheel_metadata import check_dist, read_wheel
from workspace import (
    ROOT,
    Package,
    install_wheels,
    internal_test_requirements,
    packages,
    range_failures,
    run,
    third_party_env,
    uv_command,
)

_TAG = re.compile(r"^(?P<package>[a-z0-9][a-z0-9-]*?)-v(?P<version>\d+(\.\d+)*[0-9A-Za-z.+-]*)$")
_HEADING = re.compile(r"^## +(?P<title>.+?) *$", re.MULTILINE)


class ReleaseError(Exception):
    pass


@dataclass
class Target:
    package: Package
    version: str

    @property
    def tag(self) -> str:
        return f"{self.package.name}-v{self.version}"


def parse_tag(tag: str) -> tuple[str, str]:
    match = _TAG.match(tag)
    if not match:
        raise ReleaseError(
            f"Tag {tag!r} is not of the form <package>-v<version>, e.g. mb-ops-v0.1.0."
        )
    return match["package"], match["version"]


def check(tag: str, root: Path = ROOT) -> Target:
    """The package and version a tag names, both checked against the workspace."""
    name, version = parse_tag(tag)
    known = packages(root)
    if name not in known:
        raise ReleaseError(
            f"Tag {tag!r} names {name!r}, which is not a package. Known: {', '.join(known)}."
        )
    package = known[name]
    if package.version != version:
        raise ReleaseError(
            f"Tag {tag!r} says version {version}, but {name}'s pyproject.toml says "
            f"{package.version}. Bump the version in "
            f"packages/{package.folder.name}/pyproject.toml or fix the tag."
        )
    return Target(package, version)


# --- CHANGELOG -------------------------------------------------------------------------


def _sections(text: str) -> list[tuple[str, int, int]]:
    """(title, start of heading, end of section) for every `## ` section."""
    heads = list(_HEADING.finditer(text))
    return [
        (m["title"], m.start(), heads[i + 1].start() if i + 1 < len(heads) else len(text))
        for i, m in enumerate(heads)
    ]


def _body(text: str, start: int, end: int) -> str:
    return text[text.index("\n", start) + 1 : end].strip("\n")


def _is_version_title(title: str, version: str) -> bool:
    return re.fullmatch(rf"\[?{re.escape(version)}\]?(\s.*)?", title) is not None


def has_entry(changelog: str, version: str) -> bool:
    return any(_is_version_title(title, version) for title, _, _ in _sections(changelog))


def unreleased_entries(changelog: str) -> str:
    for title, start, end in _sections(changelog):
        if title.lower() == "unreleased":
            return _body(changelog, start, end)
    return ""


def move_unreleased(changelog: str, version: str, date: str) -> str:
    """The CHANGELOG with its Unreleased entries under `## version (date)`.

    A `## version` section written before the first release (the version was never
    tagged) keeps its entries, after the Unreleased ones. An empty `## Unreleased`
    stays on top for the next changes.
    """
    sections = _sections(changelog)
    unreleased = next((s for s in sections if s[0].lower() == "unreleased"), None)
    earlier = next((s for s in sections if _is_version_title(s[0], version)), None)
    entries = _body(changelog, *unreleased[1:]) if unreleased else ""
    if not entries and earlier is None:
        raise ReleaseError(
            f"the CHANGELOG has no Unreleased entries and no '## {version}' section: "
            "say what this release changes"
        )
    if earlier is not None:
        prior = _body(changelog, *earlier[1:])
        entries = "\n".join(part for part in (entries, prior) if part)
    new_section = f"## {version} ({date})\n\n{entries}\n"
    cut = sorted((s for s in (unreleased, earlier) if s is not None), key=lambda s: s[1])
    head_end = sections[0][1] if sections else len(changelog)
    text = changelog
    for _, start, end in reversed(cut):
        text = text[:start] + text[end:]
    head = text[:head_end].rstrip("\n") + "\n\n"
    rest = text[head_end:].strip("\n")
    return head + "## Unreleased\n\n" + new_section + (f"\n{rest}\n" if rest else "")


# --- git -------------------------------------------------------------------------------


def _git(root: Path, *args: str, check_ok: bool = True) -> str:
    result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if check_ok and result.returncode != 0:
        raise ReleaseError(f"git {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def require_clean_tree(root: Path) -> None:
    dirty = _git(root, "status", "--porcelain", "--untracked-files=normal")
    if dirty:
        files = ", ".join(line[3:] for line in dirty.splitlines()[:10])
        raise ReleaseError(
            f"the work tree has uncommitted changes ({files}). Commit or stash them: a "
            "release is built from a commit."
        )


def tag_commit(root: Path, tag: str) -> str | None:
    out = _git(
        root, "rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}", check_ok=False
    )
    return out or None


# --- build and test --------------------------------------------------------------------


def build(targets: list[Target], out: Path, others: Path, uv: list[str], root: Path) -> None:
    """Each target's wheel and sdist into `out` (checked); every other wheel into `others`."""
    for target in targets:
        name = target.package.name
        run([*uv, "build", "--package", name, "--out-dir", str(out), "--quiet"], cwd=root)
    run([*uv, "build", "--all-packages", "--wheel", "--quiet", "--out-dir", str(others)], cwd=root)
    (out / ".gitignore").unlink(missing_ok=True)  # uv build writes one; --out holds only dists
    released = {t.package.name for t in targets}
    for wheel in others.glob("*.whl"):
        if read_wheel(wheel).name in released:
            wheel.unlink()
    wheels = {read_wheel(w).name: read_wheel(w) for w in out.glob("*.whl")}
    for target in targets:
        info = wheels.get(target.package.name)
        if info is None or info.version != target.version:
            raise ReleaseError(f"building {target.tag} gave no wheel of {target.version}")
    _, problems = check_dist(out, root)
    if problems:
        raise ReleaseError("the built files have problems:\n  " + "\n  ".join(problems))


def test_installed(
    target: Target, out: Path, others: Path, work: Path, uv: list[str], root: Path
) -> None:
    """The package's tests against its wheel, installed with the other packages' wheels."""
    package = target.package
    known = packages(root)
    venv = work / "venvs" / package.name
    python = third_party_env(venv, package.name, uv, root, dev=True)
    wanted = [f"{package.name}=={target.version}", *internal_test_requirements(package, known)]
    install_wheels(python, [out, others], wanted, uv)
    module = package.import_names[0]
    where = subprocess.run(
        [str(python), "-c", f"import {module}; print({module}.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not where.startswith(str(venv)):
        raise ReleaseError(f"{module} imports from {where}, not from the installed wheel")
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "mb.json").write_text("{}")
    env = {k: v for k, v in os.environ.items() if k not in ("MB_BACKEND", "KERAS_BACKEND")}
    env["MB_HOME"] = str(home)
    if package.name.startswith("mb-backend-"):
        env["MB_BACKEND"] = package.name.removeprefix("mb-backend-")
    tests = package.folder / "tests"
    cmd = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist", "-n", "2"]
    print(f"$ {' '.join(cmd)} {tests.relative_to(root)}  (against {where})", flush=True)
    if subprocess.run([*cmd, str(tests)], cwd=root, env=env).returncode != 0:
        raise ReleaseError(f"{package.name}'s tests failed against its installed wheel")


# --- the release -----------------------------------------------------------------------


def release(tags: list[str], out: Path, root: Path = ROOT, uv: list[str] | None = None) -> str:
    """Runs the release of `tags`; returns what happened, in one line."""
    uv = uv or uv_command()
    targets = [check(tag, root) for tag in tags]
    head = _git(root, "rev-parse", "HEAD")
    existing = {t.tag: tag_commit(root, t.tag) for t in targets}
    verify = all(existing.values())
    if verify and any(c != head for c in existing.values()):
        elsewhere = [tag for tag, c in existing.items() if c != head]
        raise ReleaseError(f"{', '.join(elsewhere)} already tag another commit: bump the version")
    if not verify and any(existing.values()):
        done = [tag for tag, c in existing.items() if c]
        raise ReleaseError(f"{', '.join(done)} already exist: release the others alone")
    changed: list[Path] = []
    if verify:
        for t in targets:
            if not has_entry((t.package.folder / "CHANGELOG.md").read_text(), t.version):
                raise ReleaseError(f"{t.package.name}'s CHANGELOG has no '## {t.version}' section")
    else:
        require_clean_tree(root)
    try:
        if not verify:
            today = datetime.date.today().isoformat()
            for t in targets:
                path = t.package.folder / "CHANGELOG.md"
                try:
                    path.write_text(move_unreleased(path.read_text(), t.version, today))
                except ReleaseError as error:
                    raise ReleaseError(f"{t.package.name}: {error}") from None
                changed.append(path)
        failures = [f for t in targets for f in range_failures(t.package.name, t.version, root)]
        if failures:
            raise ReleaseError(
                "other packages' ranges exclude the new version:\n  " + "\n  ".join(failures)
            )
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="mb-release-") as tmp:
            work = Path(tmp)
            others = work / "others"
            build(targets, out, others, uv, root)
            failed = []
            for t in targets:  # every package's tests run, then every failure is named
                try:
                    test_installed(t, out, others, work, uv, root)
                except (ReleaseError, subprocess.CalledProcessError) as error:
                    print(f"release {t.tag}: {error}", file=sys.stderr, flush=True)
                    failed.append(t.tag)
            if failed:
                raise ReleaseError(
                    f"tests failed against the installed wheels: {', '.join(failed)}"
                )
    except BaseException:
        if changed:
            _git(root, "checkout", "--", *(str(p) for p in changed), check_ok=False)
        raise
    if verify:
        return f"verified {', '.join(existing)} at {head[:10]}; files in {out}"
    names = ", ".join(f"{t.package.name} {t.version}" for t in targets)
    _git(root, "add", *(str(p) for p in changed))
    _git(root, "commit", "--quiet", "-m", f"release: {names}")
    for t in targets:
        _git(root, "tag", "--annotate", t.tag, "-m", f"{t.package.name} {t.version}")
    tag_list = " ".join(t.tag for t in targets)
    return f"released {names}; tagged {tag_list}. Publish with: git push origin HEAD {tag_list}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="ci/release", description="Release packages, each tagged <package>-v<version>."
    )
    parser.add_argument("tags", nargs="*", help="tags such as mb-ops-v0.1.0")
    parser.add_argument(
        "--all", metavar="VERSION", help="release every package whose version is VERSION"
    )
    parser.add_argument("--out", type=Path, help="where the released wheels and sdists go")
    args = parser.parse_args(argv)
    if bool(args.tags) == bool(args.all):
        parser.error("give either tags or --all VERSION")
    tags = args.tags
    if args.all:
        tags = [f"{p.name}-v{p.version}" for p in packages().values() if p.version == args.all]
        if not tags:
            parser.error(f"no package has the version {args.all}")
    out = (args.out or Path(tempfile.mkdtemp(prefix="mb-dist-"))).resolve()
    if out.exists() and any(out.iterdir()):
        parser.error(f"--out {out} is not empty: it must hold only the released files")
    try:
        print(f"release: {release(tags, out)}")
    except (ReleaseError, subprocess.CalledProcessError) as exc:
        print(f"release {' '.join(tags)}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
