"""ci/release: a tag must match the package's version and changelog; the wheel carries ranges."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import release  # noqa: E402
import wheel_metadata  # noqa: E402


def _fake_workspace(tmp_path: Path, version="0.3.0", changelog="## 0.3.0\n\n- things\n") -> Path:
    pkg = tmp_path / "packages" / "mb-toy"
    pkg.mkdir(parents=True)
    (pkg / "pyproject.toml").write_text(f'[project]\nname = "mb-toy"\nversion = "{version}"\n')
    (pkg / "CHANGELOG.md").write_text(f"# Changelog\n\n{changelog}")
    return tmp_path


def test_tag_must_name_package_and_version():
    with pytest.raises(release.ReleaseError, match="<package>-v<version>"):
        release.parse_tag("mb-ops-0.1.0")
    assert release.parse_tag("mb-backend-jax-v1.2.3") == ("mb-backend-jax", "1.2.3")


def test_version_mismatch_is_refused(tmp_path):
    root = _fake_workspace(tmp_path, version="0.3.1")
    with pytest.raises(release.ReleaseError, match=r"says version 0\.3\.0.*says 0\.3\.1"):
        release.check("mb-toy-v0.3.0", root)


def test_missing_changelog_entry_is_refused(tmp_path):
    root = _fake_workspace(tmp_path, changelog="## 0.2.0\n")
    with pytest.raises(release.ReleaseError, match=r"no entry for 0\.3\.0"):
        release.check("mb-toy-v0.3.0", root)


def test_unknown_package_lists_the_known_ones(tmp_path):
    root = _fake_workspace(tmp_path)
    with pytest.raises(release.ReleaseError, match="Known: mb-toy"):
        release.check("mb-nothing-v0.3.0", root)


def _wheel(tmp_path: Path, requires: list[str]) -> Path:
    path = tmp_path / "mb_toy-0.3.0-py3-none-any.whl"
    meta = "Metadata-Version: 2.4\nName: mb-toy\nVersion: 0.3.0\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mb_toy-0.3.0.dist-info/METADATA", meta)
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


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not on PATH")
def test_release_builds_one_real_package(tmp_path):
    result = subprocess.run(
        [str(ROOT / "ci" / "release"), "mb-graph-v0.1.0", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert [p.name for p in tmp_path.glob("*.whl")] == ["mb_graph-0.1.0-py3-none-any.whl"]


def test_release_refuses_a_wrong_version_before_building(tmp_path):
    result = subprocess.run(
        [str(ROOT / "ci" / "release"), "mb-graph-v9.9.9", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert "says version 9.9.9" in result.stderr
    assert list(tmp_path.iterdir()) == []
