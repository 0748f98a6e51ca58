"""ci/release: tags, CHANGELOGs, ranges, clean trees, wheel checks, and a real release.

The real releases run in a temporary clone of this repository (committed state), so
the tag, the commit and the CHANGELOG change never touch the working repository.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import release  # noqa: E402
import wheel_metadata  # noqa: E402
import workspace  # noqa: E402

GIT_ENV = {
    "GIT_AUTHOR_NAME": "mb release test",
    "GIT_AUTHOR_EMAIL": "release-test@localhost",
    "GIT_COMMITTER_NAME": "mb release test",
    "GIT_COMMITTER_EMAIL": "release-test@localhost",
}


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **GIT_ENV},
    ).stdout.strip()


def _fake_workspace(tmp_path: Path, version="0.3.0", changelog="## 0.3.0\n\n- things\n") -> Path:
    pkg = tmp_path / "packages" / "mb-toy"
    (pkg / "src" / "mb_toy").mkdir(parents=True)
    (pkg / "pyproject.toml").write_text(f'[project]\nname = "mb-toy"\nversion = "{version}"\n')
    (pkg / "CHANGELOG.md").write_text(f"# Changelog\n\n{changelog}")
    return tmp_path


# --- tags and versions -----------------------------------------------------------------


def test_tag_must_name_package_and_version():
    with pytest.raises(release.ReleaseError, match="<package>-v<version>"):
        release.parse_tag("mb-ops-0.1.0")
    assert release.parse_tag("mb-backend-jax-v1.2.3") == ("mb-backend-jax", "1.2.3")


def test_version_mismatch_is_refused(tmp_path):
    root = _fake_workspace(tmp_path, version="0.3.1")
    with pytest.raises(release.ReleaseError, match=r"says version 0\.3\.0.*says 0\.3\.1"):
        release.check("mb-toy-v0.3.0", root)


def test_unknown_package_lists_the_known_ones(tmp_path):
    root = _fake_workspace(tmp_path)
    with pytest.raises(release.ReleaseError, match="Known: mb-toy"):
        release.check("mb-nothing-v0.3.0", root)


# --- CHANGELOG -------------------------------------------------------------------------

CHANGELOG = """# Changelog of mb-toy

## Unreleased

- new op `frobnicate`.
- faster `matmul`.

## 0.1.0

- First version.
"""


def test_unreleased_entries_move_under_the_version_with_the_date():
    moved = release.move_unreleased(CHANGELOG, "0.2.0", "2030-01-02")
    assert moved == (
        "# Changelog of mb-toy\n\n## Unreleased\n\n## 0.2.0 (2030-01-02)\n\n"
        "- new op `frobnicate`.\n- faster `matmul`.\n\n## 0.1.0\n\n- First version.\n"
    )
    assert release.has_entry(moved, "0.2.0") and release.unreleased_entries(moved) == ""


def test_a_never_released_version_section_is_merged_not_duplicated():
    moved = release.move_unreleased(CHANGELOG, "0.1.0", "2030-01-02")
    assert moved.count("## 0.1.0") == 1
    assert moved.endswith(
        "## 0.1.0 (2030-01-02)\n\n- new op `frobnicate`.\n- faster `matmul`.\n- First version.\n"
    )


def test_nothing_to_release_is_refused():
    empty = "# Changelog\n\n## Unreleased\n\n## 0.1.0\n\n- First version.\n"
    with pytest.raises(release.ReleaseError, match="no Unreleased entries"):
        release.move_unreleased(empty, "0.2.0", "2030-01-02")


# --- ranges ----------------------------------------------------------------------------


def test_specifiers_admit_versions_as_pep_440_says():
    admits = workspace.admits
    assert admits(">=0.1,<0.2", "0.1.0") and admits(">=0.1,<0.2", "0.1.7")
    assert not admits(">=0.1,<0.2", "0.2.0") and not admits(">=0.1,<0.2", "0.0.9")
    assert not admits(">=0.1,<0.2", "0.2.0rc1")  # '<0.2' excludes 0.2's pre-releases
    assert admits("~=0.1.2", "0.1.9") and not admits("~=0.1.2", "0.2.0")
    assert admits("==0.1.*", "0.1.4") and not admits("==0.1.*", "0.2.0")
    assert admits("!=0.1.1", "0.1.2") and not admits("!=0.1.1", "0.1.1")
    assert admits("", "9.9.9")


def _copy_workspace(tmp_path: Path) -> Path:
    """The repository's package metadata and CHANGELOGs, committed in a new git repo."""
    root = tmp_path / "copy"
    for pyproject in ROOT.glob("packages/*/pyproject.toml"):
        dest = root / pyproject.parent.relative_to(ROOT)
        dest.mkdir(parents=True)
        shutil.copy(pyproject, dest)
        shutil.copy(pyproject.parent / "CHANGELOG.md", dest)
        (dest / "src" / "placeholder").mkdir(parents=True)
    _git(root, "init", "--quiet")
    _git(root, "add", ".")
    _git(root, "commit", "--quiet", "-m", "copy")
    return root


def _bump(root: Path, folder: str, old: str, new: str) -> None:
    path = root / "packages" / folder / "pyproject.toml"
    text = path.read_text()
    assert f'version = "{old}"' in text
    path.write_text(text.replace(f'version = "{old}"', f'version = "{new}"', 1))


def test_bumping_mb_ops_to_0_2_names_every_dependant(tmp_path):
    root = _copy_workspace(tmp_path)
    _bump(root, "mb-ops", "0.1.0", "0.2.0")
    # Every package that declares anything on mb-ops, read straight from the pyprojects.
    dependants = {
        p.name
        for p in workspace.packages(root).values()
        if any(r.name == "mb-ops" for r in workspace.requirements(p))
    }
    assert {"mb-framework", "mb-layers", "mb-backend-jax", "mb-train"} <= dependants
    failures = workspace.range_failures("mb-ops", "0.2.0", root)
    named = {f.split(" requires ")[0] for f in failures}
    assert named == dependants
    assert all("'mb-ops>=0.1,<0.2'" in f and "excludes mb-ops 0.2.0" in f for f in failures)

    _git(root, "commit", "--quiet", "-am", "bump mb-ops")
    changelog = (root / "packages" / "mb-ops" / "CHANGELOG.md").read_text()
    with pytest.raises(release.ReleaseError) as error:
        release.release(["mb-ops-v0.2.0"], tmp_path / "out", root, uv=["false"])
    for name in dependants:
        assert f"\n  {name} requires 'mb-ops>=0.1,<0.2'" in str(error.value)
    # Nothing was built, the CHANGELOG is as it was, nothing was committed or tagged.
    assert not (tmp_path / "out").exists()
    assert (root / "packages" / "mb-ops" / "CHANGELOG.md").read_text() == changelog
    assert _git(root, "status", "--porcelain") == "" and _git(root, "tag") == ""


def test_a_dirty_tree_is_refused_and_named(tmp_path):
    root = _copy_workspace(tmp_path)
    (root / "packages" / "mb-graph" / "notes.txt").write_text("draft")
    with pytest.raises(release.ReleaseError, match=r"uncommitted changes \(packages/mb-graph/"):
        release.release(["mb-graph-v0.1.0"], tmp_path / "out", root, uv=["false"])


def test_an_existing_tag_on_another_commit_is_refused(tmp_path):
    root = _copy_workspace(tmp_path)
    _git(root, "tag", "mb-graph-v0.1.0")
    (root / "x").write_text("later")
    _git(root, "add", "x")
    _git(root, "commit", "--quiet", "-m", "later")
    with pytest.raises(release.ReleaseError, match="already tag another commit"):
        release.release(["mb-graph-v0.1.0"], tmp_path / "out", root, uv=["false"])


# --- built files -----------------------------------------------------------------------


def _wheel(tmp_path: Path, requires: list[str]) -> Path:
    path = tmp_path / "mb_toy-0.3.0-py3-none-any.whl"
    meta = "Metadata-Version: 2.4\nName: mb-toy\nVersion: 0.3.0\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mb_toy-0.3.0.dist-info/METADATA", meta)
        zf.writestr("mb_toy/__init__.py", "")
    return path


def test_internal_dependency_without_range_is_a_problem(tmp_path):
    info = wheel_metadata.read_wheel(_wheel(tmp_path, ["mb-ops", "numpy", "mb-graph>=0.1"]))
    problems = wheel_metadata.range_problems(info)
    assert len(problems) == 2
    assert "'mb-ops'" in problems[0] and "'mb-graph>=0.1'" in problems[1]


def test_ranged_internal_dependencies_pass(tmp_path):
    requires = ["mb-ops<0.2,>=0.1", "mb-data[grain]<0.2,>=0.1; extra == 'grain'", "jax>=0.4"]
    assert (
        wheel_metadata.range_problems(wheel_metadata.read_wheel(_wheel(tmp_path, requires))) == []
    )


def test_a_bare_wheel_lacks_license_types_and_metadata(tmp_path):
    problems = wheel_metadata.content_problems(wheel_metadata.read_wheel(_wheel(tmp_path, [])))
    text = "\n".join(problems)
    for needed in (
        "no LICENSE",
        "mb_toy/py.typed",
        "License-Expression",
        "project URLs",
        "classifiers",
        "keywords",
    ):
        assert needed in text


def test_readme_links_that_break_on_the_index_are_named():
    readme = (
        "See [the design](../shared/DESIGN.md) and [ops](docs/ops.md), [home](https://x.org),"
        " [below](#usage).\nThe contract of DESIGN.md section 2.\n"
    )
    problems = wheel_metadata.readme_problems("mb-toy", readme)
    assert sum("relative path" in p for p in problems) == 2
    assert sum("outside the package" in p for p in problems) == 2


def test_sdist_without_license_is_a_problem(tmp_path):
    sdist = tmp_path / "mb_toy-0.3.0.tar.gz"
    src = tmp_path / "mb_toy-0.3.0"
    (src / "src" / "mb_toy").mkdir(parents=True)
    (src / "README.md").write_text("# mb-toy\n")
    (src / "src" / "mb_toy" / "__init__.py").write_text("")
    with tarfile.open(sdist, "w:gz") as tf:
        tf.add(src, arcname=src.name)
    problems = wheel_metadata.sdist_problems(sdist)
    assert any("no LICENSE" in p for p in problems)
    assert any("py.typed" in p for p in problems)


def test_every_package_folder_carries_the_root_license_and_py_typed():
    license_text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    for package in workspace.packages().values():
        assert (package.folder / "LICENSE").read_text() == license_text, package.name
        for module in package.import_names:
            assert (package.folder / "src" / module / "py.typed").is_file(), module


def test_mb_info_lists_every_workspace_package():
    info = (ROOT / "packages" / "mb" / "src" / "mb" / "_info.py").read_text()
    for name in workspace.packages():
        assert f'    "{name}",\n' in info, f"add {name} to MB_PACKAGES in mb/_info.py"


# --- real releases in a temporary clone ------------------------------------------------

UV = os.environ.get("UV", "uv").split()
needs_uv = pytest.mark.skipif(shutil.which(UV[0]) is None, reason="uv is not installed")


@pytest.fixture
def clone(tmp_path):
    """A clone of the committed repository, with git identity for the release commit."""
    dest = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True)
    return dest


def _release(clone: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(clone / "ci" / "release"), *args],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, **GIT_ENV, "UV": " ".join(UV)},
    )


@needs_uv
@pytest.mark.slow
def test_release_of_mb_graph_commits_tags_and_ci_verifies_it(clone, tmp_path):
    # mb-graph 0.1.0 is released (tagged) already: the clone makes a patch release,
    # as a maintainer would: bump the version, note the change, commit, release.
    _bump(clone, "mb-graph", "0.1.0", "0.1.1")
    init = clone / "packages" / "mb-graph" / "src" / "mb_graph" / "__init__.py"
    init.write_text(init.read_text().replace('__version__ = "0.1.0"', '__version__ = "0.1.1"'))
    changelog_path = clone / "packages" / "mb-graph" / "CHANGELOG.md"
    text = changelog_path.read_text()
    assert "## Unreleased\n" in text
    changelog_path.write_text(
        text.replace("## Unreleased\n", "## Unreleased\n\n- a patch-release fix.\n", 1)
    )
    _git(clone, "commit", "--quiet", "-am", "mb-graph 0.1.1")
    out = tmp_path / "dist"
    earlier = set(_git(clone, "tag").split())  # packages released before
    result = _release(clone, "mb-graph-v0.1.1", "--out", str(out))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "passed" in result.stdout  # its tests ran against the installed wheel
    assert sorted(p.name for p in out.iterdir()) == [
        "mb_graph-0.1.1-py3-none-any.whl",
        "mb_graph-0.1.1.tar.gz",
    ]
    assert set(_git(clone, "tag").split()) - earlier == {"mb-graph-v0.1.1"}
    assert _git(clone, "log", "-1", "--format=%s") == "release: mb-graph 0.1.1"
    assert _git(clone, "rev-parse", "mb-graph-v0.1.1^{commit}") == _git(clone, "rev-parse", "HEAD")
    changelog = changelog_path.read_text()
    assert changelog.count("## 0.1.1 (") == 1 and "## Unreleased\n\n## 0.1.1 (" in changelog
    assert "- a patch-release fix." in changelog.split("## 0.1.1 (")[1].split("\n## ")[0]
    assert _git(clone, "status", "--porcelain") == ""

    # What the release workflow runs on the tagged commit: verify, change nothing.
    again = tmp_path / "dist-ci"
    verified = _release(clone, "mb-graph-v0.1.1", "--out", str(again))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-3000:]
    assert "verified mb-graph-v0.1.1" in verified.stdout
    assert len(list(again.iterdir())) == 2
    assert _git(clone, "log", "-1", "--format=%s") == "release: mb-graph 0.1.1"


@needs_uv
def test_release_refuses_a_wrong_version_before_building(clone, tmp_path):
    out = tmp_path / "out"
    result = _release(clone, "mb-graph-v9.9.9", "--out", str(out))
    assert result.returncode == 1
    assert "says version 9.9.9" in result.stderr
    assert not out.exists() or list(out.iterdir()) == []


def _install_commands(text: str) -> list[str]:
    """Arguments of every `pip install` inside the fenced code blocks of a README."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
    found = []
    for block in blocks:
        for line in block.splitlines():
            match = re.search(r"pip install (.*?)(?:\s+#|&&|$)", line)
            if match:
                found += shlex.split(match[1])
    return found


def test_every_readme_install_command_names_a_workspace_package_and_its_extras():
    known = workspace.packages()
    readmes = [ROOT / "README.md", *ROOT.glob("packages/*/README.md")]
    checked = 0
    for readme in readmes:
        for arg in _install_commands(readme.read_text()):
            if arg.startswith("-") or not arg.lower().startswith("mb"):
                continue
            name, _, extras = arg.partition("[")
            assert name in known, (
                f"{readme.relative_to(ROOT)}: `pip install {arg}` names no mb package"
            )
            declared = set(known[name].project.get("optional-dependencies", {}))
            for extra in filter(None, extras.rstrip("]").split(",")):
                assert extra in declared, (
                    f"{readme.relative_to(ROOT)}: {name} has no extra {extra!r}"
                )
            checked += 1
    assert checked >= 5
