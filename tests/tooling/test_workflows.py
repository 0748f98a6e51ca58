"""The hosted CI workflows agree with ci/matrix.py and release one package per tag.

actionlint checks the workflows' syntax and expressions (the `workflows` leg runs it);
these tests parse them and check what actionlint cannot know: that every leg of the
matrix runs in exactly one job, one job per backend, the GPU job, and the release path.
"""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
sys.path.insert(0, str(ROOT / "ci"))

import matrix  # noqa: E402


def _load(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as True
    return data


def _runs(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def _uses(job: dict) -> list[str]:
    return [step["uses"] for step in job["steps"] if "uses" in step]


@pytest.fixture(scope="module")
def legs():
    return matrix.build_legs(None)


def test_every_workflow_parses_and_has_jobs():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["ci.yml", "release.yml"]
    for file in files:
        data = _load(file.name)
        assert data["on"] and data["jobs"], file.name
        for name, job in data["jobs"].items():
            assert job.get("runs-on") and job.get("steps"), f"{file.name}: job {name}"


def test_ci_jobs_come_from_the_matrix_and_run_ci_test_only(legs):
    jobs = _load("ci.yml")["jobs"]
    assert "ci/matrix.py --list-json" in _runs(jobs["plan"])
    test = jobs["test"]
    assert test["needs"] == "plan"
    assert test["strategy"]["matrix"]["include"] == "${{ fromJSON(needs.plan.outputs.jobs) }}"
    assert test["strategy"]["fail-fast"] is False
    assert test["name"] == "${{ matrix.job }}"
    runs = _runs(test)
    assert 'args+=(--only "$leg")' in runs and 'bash ci/test "${args[@]}"' in runs
    env = next(step["env"] for step in test["steps"] if "run" in step)
    assert env["LEGS"] == "${{ toJSON(matrix.only) }}"
    # No leg is named by hand anywhere: the matrix is the one definition.
    text = (WORKFLOWS / "ci.yml").read_text()
    for leg in legs:
        if not leg.fatal:
            assert f"--only {leg.name}" not in text and f'--only "{leg.name}"' not in text


def test_uv_cache_is_keyed_on_the_lock():
    for name in ("ci.yml", "release.yml"):
        for job in _load(name)["jobs"].values():
            for step in job["steps"]:
                if step.get("uses", "").startswith("astral-sh/setup-uv") and step.get("with"):
                    assert step["with"] == {
                        "enable-cache": True,
                        "cache-dependency-glob": "uv.lock",
                    }


def test_the_plan_puts_every_leg_in_exactly_one_job(legs):
    plan = matrix.plan(legs)
    listed = [name for job in plan["jobs"] for name in job["only"]]
    expected = [leg.name for leg in legs if not leg.fatal]
    assert sorted(listed) == sorted(expected)
    assert len(listed) == len(set(listed))
    names = [job["job"] for job in plan["jobs"]]
    for backend in matrix.BACKENDS:
        job = next(j for j in plan["jobs"] if j["job"] == f"backend {backend}")
        assert f"integration {backend}" in job["only"]
        assert f"package mb-backend-{backend}" in job["only"]
    assert {"lint", "wheels", "isolated", "packages", "tooling"} <= set(names)


def test_each_job_selects_exactly_its_legs_through_only(legs):
    fatal = {leg.name for leg in legs if leg.fatal}
    for job in matrix.plan(legs)["jobs"]:
        chosen = {leg.name for leg in matrix.build_legs(set(job["only"]))}
        assert chosen == set(job["only"]) | fatal, job["job"]


def test_list_json_is_what_the_plan_step_reads():
    result = subprocess.run(
        [sys.executable, str(ROOT / "ci" / "matrix.py"), "--list-json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    printed = json.loads(result.stdout)
    assert printed == matrix.plan(matrix.build_legs(None))
    assert {"job", "only"} == set(printed["jobs"][0])


def test_gpu_job_runs_ci_test_gpu_on_a_self_hosted_gpu_runner():
    gpu = _load("ci.yml")["jobs"]["gpu"]
    assert gpu["runs-on"] == ["self-hosted", "gpu"]
    runs = _runs(gpu)
    assert "bash ci/test --gpu" in runs
    # The GPU environment is built from uv.lock before the legs run in it.
    assert "python3 ci/gpu_env.py" in runs.split("bash ci/test --gpu")[0]
    assert gpu["if"] == "vars.MB_GPU_RUNNER == 'true'"  # forks without the runner skip it
    labels = yaml.safe_load((ROOT / ".github" / "actionlint.yaml").read_text())
    assert "gpu" in labels["self-hosted-runner"]["labels"]


def test_release_runs_on_package_tags_and_publishes_after_ci_release():
    workflow = _load("release.yml")
    patterns = workflow["on"]["push"]["tags"]
    for tag in ("mb-ops-v0.1.0", "mb-backend-jax-v1.2.3", "mb-framework-v0.2.0rc1"):
        assert any(fnmatch.fnmatchcase(tag, p) for p in patterns), tag
    for tag in ("v0.1.0", "mb-ops-0.1.0", "main"):
        assert not any(fnmatch.fnmatchcase(tag, p) for p in patterns), tag
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    assert 'bash ci/release "$GITHUB_REF_NAME" --out dist' in _runs(build)
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert workflow["permissions"] == {"contents": "read"}
    assert "uv publish --trusted-publishing always dist/*" in _runs(publish)
    assert 'test "$(find dist -type f | wc -l)" -eq 2' in _runs(publish)
    assert not any(u.startswith("actions/checkout") for u in _uses(publish))


def test_actionlint_with_shellcheck_finds_nothing():
    # Both come from the dev group, next to this interpreter; actionlint finds shellcheck
    # on PATH and then checks every `run:` script too.
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "shellcheck").is_file()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [str(bin_dir / "actionlint")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
