"""What ``mb info`` reports: mb's packages, the engines, the active backend and its devices."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

from mb_ops import backends, config

MB_PACKAGES = (
    "mb-framework",
    "mb-graph",
    "mb-ops",
    "mb-backend-numpy",
    "mb-backend-jax",
    "mb-backend-torch",
    "mb-backend-tensorflow",
    "mb-backend-openvino",
    "mb-layers",
    "mb-data",
    "mb-train",
    "mb-saving",
    "mb-export",
    "mb-applications",
)

ENGINE_DISTRIBUTIONS = (
    "numpy",
    "ml-dtypes",
    "jax",
    "jaxlib",
    "torch",
    "tensorflow",
    "tensorflow-cpu",
    "openvino",
    "grain",
)


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


@dataclass
class Info:
    packages: dict[str, str | None]
    engines: dict[str, str]
    backends: dict[str, bool]
    active_backend: str | None
    backend_origin: str
    devices: list[str] = field(default_factory=list)
    error: str | None = None
    # The accelerators each trainable engine sees, each engine probed in a process of its
    # own; empty without an NVIDIA driver (no engine can see a GPU then).
    gpus: dict[str, list[str]] = field(default_factory=dict)
    gpu_note: str = ""

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def versions() -> tuple[dict[str, str | None], dict[str, str]]:
    """Every mb package's version (None if absent) and the installed engines' versions.

    Reads installed metadata only: no backend is chosen or loaded.
    """
    packages = {name: _version(name) for name in MB_PACKAGES}
    engines = {d: v for d in ENGINE_DISTRIBUTIONS if (v := _version(d)) is not None}
    return packages, engines


def render_versions(packages: dict[str, str | None], engines: dict[str, str]) -> str:
    """What ``mb --version`` prints: installed mb packages, then engines, one per line."""
    lines = [f"mb {packages.get('mb-framework') or 'unknown'}"]
    lines += [f"  {name:<24} {version}" for name, version in packages.items() if version]
    lines.append("engines:")
    lines += [f"  {name:<24} {version}" for name, version in engines.items()]
    if len(lines) == 2:
        lines.append("  none installed")
    return "\n".join(lines)


def collect() -> Info:
    """Gather the report. A broken backend choice is reported, not raised."""
    packages, engines = versions()
    installed = {
        name: desc.engine_installed() for name, desc in backends.available_backends().items()
    }
    _, origin = backends.requested_backend()
    info = Info(packages, engines, installed, None, origin)
    try:
        info.active_backend = config.backend()
        info.devices = backends.backend_module("distribution").list_devices()
    except (ImportError, ValueError) as exc:
        info.error = str(exc)
    info.gpus, info.gpu_note = engine_gpus(installed)
    return info


_PROBE = (
    "import json; from mb_ops import backends; "
    "print(json.dumps(backends.backend_module('distribution').list_devices()))"
)
_GPU_ENGINES = ("jax", "torch", "tensorflow")


def nvidia_driver() -> bool:
    """Whether this machine has an NVIDIA driver loaded (read from /proc, no engine)."""
    return os.path.exists("/proc/driver/nvidia/version") or shutil.which("nvidia-smi") is not None


def engine_gpus(installed: dict[str, bool]) -> tuple[dict[str, list[str]], str]:
    """The non-CPU devices each installed trainable engine lists, and a note.

    Each engine runs in a child process of its own (mb loads one engine per process),
    all at once. Without an NVIDIA driver no engine is started: none can see a GPU.
    """
    names = [n for n in _GPU_ENGINES if installed.get(n)]
    if not nvidia_driver():
        return {}, "none (no NVIDIA driver on this machine)"
    env = {k: v for k, v in os.environ.items() if k != "KERAS_BACKEND"}
    children = {
        name: subprocess.Popen(
            [sys.executable, "-c", _PROBE],
            env={**env, "MB_BACKEND": name, "TF_CPP_MIN_LOG_LEVEL": "3"},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for name in names
    }
    gpus = {}
    for name, child in children.items():
        try:
            out, _ = child.communicate(timeout=120)
            devices = json.loads(out.strip().splitlines()[-1]) if child.returncode == 0 else []
        except (subprocess.TimeoutExpired, ValueError, IndexError):
            child.kill()
            devices = []
        gpus[name] = [d for d in devices if not d.startswith("cpu")]
    return gpus, ""


def render(info: Info) -> str:
    lines = ["mb packages:"]
    for name, version in info.packages.items():
        lines.append(f"  {name:<24} {version or 'not installed'}")
    lines.append("engines:")
    for name, version in info.engines.items():
        lines.append(f"  {name:<24} {version}")
    lines.append("backends installed:")
    for name, ok in info.backends.items():
        lines.append(f"  {name:<24} {'ready' if ok else 'engine missing'}")
    if info.error:
        lines.append(f"active backend: none ({info.error})")
    else:
        lines.append(f"active backend: {info.active_backend} (chosen by {info.backend_origin})")
        lines.append(f"devices: {', '.join(info.devices) or 'none'}")
    if info.gpu_note:
        lines.append(f"GPUs: {info.gpu_note}")
    else:
        lines.append("GPUs each engine sees:")
        for name, gpus in info.gpus.items():
            lines.append(f"  {name:<24} {', '.join(gpus) or 'none'}")
    return "\n".join(lines)
