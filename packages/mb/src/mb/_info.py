"""What ``mb info`` reports: mb's packages, the engines, the active backend and its devices."""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass, field

from mb_ops import backends, config

MB_PACKAGES = (
    "mb",
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

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def collect() -> Info:
    """Gather the report. A broken backend choice is reported, not raised."""
    packages = {name: _version(name) for name in MB_PACKAGES}
    engines = {d: v for d in ENGINE_DISTRIBUTIONS if (v := _version(d)) is not None}
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
    return info


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
    return "\n".join(lines)
