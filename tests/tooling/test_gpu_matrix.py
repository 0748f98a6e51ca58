"""`ci/test --gpu`'s plumbing: the GPU environment from uv.lock, the legs, the dry run.

The legs themselves run on the CPU in every matrix (`gpu dry run <backend>`); these tests
check what the dry run cannot: the GPU environment's requirements and the legs' shape.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import gpu_env  # noqa: E402
import matrix  # noqa: E402


@pytest.fixture(scope="module")
def exported():
    return gpu_env.export()


def test_gpu_environment_has_the_cuda_builds_and_not_tensorflow_cpu(exported):
    requirements = gpu_env.gpu_requirements(exported)
    names = {gpu_env.requirement_name(line) for line in requirements.splitlines()}
    # jax's CUDA plugin, TensorFlow's CUDA build with cuDNN, torch, every mb package.
    assert {"jax-cuda12-plugin", "tensorflow", "nvidia-cudnn-cu12", "torch"} <= names
    assert "tensorflow-cpu" not in names
    assert "tensorflow-cpu" in {gpu_env.requirement_name(x) for x in exported.splitlines()}
    editable = [line for line in requirements.splitlines() if line.startswith("-e ")]
    assert len(editable) == len(list((ROOT / "packages").iterdir()))
    # The versions are the lock's: the CPU environment's TensorFlow version, CUDA build.
    cpu = next(x for x in exported.splitlines() if x.startswith("tensorflow-cpu=="))
    gpu = next(x for x in requirements.splitlines() if x.startswith("tensorflow=="))
    assert cpu.split(";")[0].split("==")[1].strip() == gpu.split(";")[0].split("==")[1].strip()


def test_an_export_without_the_gpu_builds_is_refused_with_the_fix():
    with pytest.raises(RuntimeError, match="uv lock"):
        gpu_env.gpu_requirements("numpy==2.0\ntensorflow-cpu==2.21.0\n")


def test_gpu_legs_check_the_device_then_run_gpu_and_integration_tests():
    for leg in matrix.gpu_legs(dry_run=False):
        check, tests = leg.commands
        assert check[0].endswith(".venv-gpu/bin/python") and check[1].endswith("gpu_check.py")
        assert "--allow-cpu" not in check
        assert tests[tests.index("-m", tests.index("pytest")) + 1] == "gpu or integration"
        assert leg.env["MB_REQUIRE_GPU"] == "1" and "MB_GPU_DRY_RUN" not in leg.env
    dry = matrix.gpu_legs(dry_run=True)
    assert [leg.name for leg in dry] == [f"gpu dry run {b}" for b in matrix.GPU_BACKENDS]
    assert all("--allow-cpu" in leg.commands[0] for leg in dry)
    # The dry run is part of every ordinary matrix.
    assert {leg.name for leg in dry} <= {leg.name for leg in matrix.build_legs(None)}


def test_gpu_check_fails_when_the_engine_sees_no_gpu(tmp_path):
    env = {"MB_BACKEND": "numpy", "MB_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    script = str(ROOT / "ci" / "gpu_check.py")
    result = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True)
    assert result.returncode == 1
    assert "numpy: devices cpu:0" in result.stdout
    assert "sees no GPU" in result.stderr and "ci/gpu_env.py" in result.stderr
    allowed = subprocess.run([sys.executable, script, "--allow-cpu"], env=env, capture_output=True)
    assert allowed.returncode == 0


def test_ci_test_gpu_without_the_gpu_environment_says_how_to_build_it(tmp_path, monkeypatch):
    monkeypatch.setattr(matrix, "GPU_VENV", tmp_path / "absent")
    assert matrix.run_gpu(dry_run=False, only=None) == 1
