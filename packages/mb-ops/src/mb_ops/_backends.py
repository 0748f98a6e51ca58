"""Finding, choosing and loading the backend: one per process, fixed once used.

Backends are found only through the ``mb.backends`` entry-point group, so this
package never names a backend package in an import. Discovery reads package
metadata only; the engine (jax, torch, ...) is imported when the backend is
loaded, not before.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import threading
from dataclasses import dataclass, field
from types import ModuleType

from mb_ops import _config

ENTRY_POINT_GROUP = "mb.backends"
DEFAULT_BACKEND = "jax"
FALLBACK_BACKEND = "numpy"

# The backends mb publishes, with the distribution that provides each. Used to
# tell a user which package to install; discovery itself uses entry points.
OFFICIAL_BACKENDS = {
    "numpy": "mb-backend-numpy",
    "jax": "mb-backend-jax",
    "torch": "mb-backend-torch",
    "tensorflow": "mb-backend-tensorflow",
    "openvino": "mb-backend-openvino",
}

# The modules every backend package provides (DESIGN.md section 2).
CONTRACT_MODULES = (
    "core",
    "numpy",
    "nn",
    "math",
    "linalg",
    "image",
    "random",
    "rnn",
    "training",
    "layer",
    "distribution",
    "export",
)


class BackendNotInstalledError(ImportError):
    """A known backend was asked for, but its package or engine is missing.

    A subclass of ``ImportError``; its message says what to install.

    Example:

    >>> from mb_ops import backends, config
    >>> issubclass(backends.BackendNotInstalledError, ImportError)
    True
    """


@dataclass(frozen=True)
class BackendDescriptor:
    """What a backend package registers under the ``mb.backends`` entry points.

    Attributes:
        name: the backend name users pass in ``MB_BACKEND`` (``"jax"``).
        module: the import name of the backend package (``"mb_backend_jax"``).
        engine: the import name of the engine, or None for none beyond NumPy.
        engine_distribution: the pip name that provides the engine.
        trainable: False for inference-only backends (numpy, openvino).
        engine_distributions: every distribution to report in ``mb info``.
        engine_loader: a module of the backend package that imports the engine the
            backend's way (e.g. without what the engine would import on the side),
            imported before any contract module; empty where a plain import will do.

    Example:

    >>> from mb_ops import backends
    >>> numpy_backend = backends.available_backends()["numpy"]
    >>> numpy_backend.module, numpy_backend.engine, numpy_backend.trainable
    ('mb_backend_numpy', None, False)
    """

    name: str
    module: str
    engine: str | None
    engine_distribution: str | None
    trainable: bool = True
    engine_distributions: tuple[str, ...] = field(default=())
    engine_loader: str = ""

    def engine_installed(self) -> bool:
        return self.engine is None or importlib.util.find_spec(self.engine) is not None


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    found: dict[str, importlib.metadata.EntryPoint] = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)
    return found


def available_backends() -> dict[str, BackendDescriptor]:
    """Every backend registered in this environment, by name (engines not imported).

    Returns:
        A dict from backend name to its ``BackendDescriptor``, sorted by name.

    Raises:
        TypeError: if an entry point of the ``mb.backends`` group is not a
            ``BackendDescriptor``.

    Example:

    >>> from mb_ops import backends, config
    >>> found = backends.available_backends()
    >>> config.backend() in found, found["numpy"].trainable
    (True, False)
    """
    out = {}
    for name, ep in sorted(_entry_points().items()):
        descriptor = ep.load()
        if not isinstance(descriptor, BackendDescriptor):
            raise TypeError(
                f"The entry point {ep.value!r} registered as mb backend {name!r} must be a "
                f"BackendDescriptor, received {type(descriptor).__name__}."
            )
        out[name] = descriptor
    return out


def _install_hint(name: str) -> str:
    dist = OFFICIAL_BACKENDS.get(name)
    if dist is None:
        return ""
    return f" Install it with: pip install {dist}  (or: pip install 'mb-framework[{name}]')."


def resolve_backend_name() -> str:
    """The name of the backend this process will use, validated but not loaded.

    ``MB_BACKEND``, else ``KERAS_BACKEND``, else ``~/.mb/mb.json``, else jax when its
    engine is installed, else numpy.

    Returns:
        A backend name.

    Raises:
        BackendNotInstalledError: if the requested backend (or its engine) is missing.
        ValueError: if the requested name is not a backend.

    Example:

    >>> from mb_ops import backends, config
    >>> backends.resolve_backend_name() == config.backend()
    True
    """
    requested, origin = _config.requested_backend()
    backends = available_backends()
    if requested is None:
        jax = backends.get(DEFAULT_BACKEND)
        if jax is not None and jax.engine_installed():
            return DEFAULT_BACKEND
        if FALLBACK_BACKEND in backends:
            return FALLBACK_BACKEND
        raise BackendNotInstalledError(
            "No mb backend is installed. Install one, e.g. pip install mb-backend-numpy, "
            "or pip install mb-framework for the whole framework on the default (jax)."
        )
    if requested not in backends:
        if requested in OFFICIAL_BACKENDS:
            raise BackendNotInstalledError(
                f"The {requested!r} backend was requested by {origin}, but its package "
                f"{OFFICIAL_BACKENDS[requested]} is not installed.{_install_hint(requested)}"
            )
        known = ", ".join(sorted(set(backends) | set(OFFICIAL_BACKENDS)))
        raise ValueError(
            f"Unknown backend {requested!r} (requested by {origin}). "
            f"Known backends: {known}. Installed here: {', '.join(backends) or 'none'}."
        )
    descriptor = backends[requested]
    if not descriptor.engine_installed():
        raise BackendNotInstalledError(
            f"The {requested!r} backend was requested by {origin}, but its engine "
            f"{descriptor.engine!r} is not installed. Install it with: "
            f"pip install {descriptor.engine_distribution}."
        )
    return requested


class _Active:
    lock = threading.Lock()
    name: str | None = None
    descriptor: BackendDescriptor | None = None
    module: ModuleType | None = None


def backend() -> str:
    """The name of the active backend; fixes the choice for this process.

    Returns:
        A backend name, e.g. ``"jax"``.

    Example:

    >>> from mb_ops import backends, config
    >>> config.backend() in backends.available_backends()
    True
    """
    if _Active.name is None:
        with _Active.lock:
            if _Active.name is None:
                name = resolve_backend_name()
                _Active.descriptor = available_backends()[name]
                _Active.name = name
    return _Active.name


def backend_descriptor() -> BackendDescriptor:
    """The descriptor of the active backend.

    Returns:
        A ``BackendDescriptor``.

    Example:

    >>> from mb_ops import backends, config
    >>> backends.backend_descriptor().name == config.backend()
    True
    """
    backend()
    assert _Active.descriptor is not None
    return _Active.descriptor


def load_backend() -> ModuleType:
    """Import and return the active backend package (imports its engine).

    Returns:
        The backend's package module (e.g. ``mb_backend_jax``).

    Raises:
        BackendNotInstalledError: if the package cannot be imported.

    Example:

    >>> from mb_ops import backends, config
    >>> backends.load_backend().__name__ == backends.backend_descriptor().module
    True
    """
    if _Active.module is None:
        descriptor = backend_descriptor()
        with _Active.lock:
            if _Active.module is None:
                try:
                    module = importlib.import_module(descriptor.module)
                    if descriptor.engine_loader:
                        importlib.import_module(f"{descriptor.module}.{descriptor.engine_loader}")
                    _Active.module = module
                except ImportError as exc:
                    raise BackendNotInstalledError(
                        f"The {descriptor.name!r} backend could not be imported: {exc}."
                        f"{_install_hint(descriptor.name)}"
                    ) from exc
    return _Active.module


def backend_module(name: str) -> ModuleType:
    """One contract module of the active backend, e.g. ``backend_module("core")``.

    Args:
        name: a contract module: ``"core"``, ``"numpy"``, ``"nn"``, ``"math"``,
            ``"linalg"``, ``"image"``, ``"random"``, ``"rnn"``, ``"training"``,
            ``"layer"``, ``"distribution"`` or ``"export"``.

    Returns:
        The module.

    Raises:
        ValueError: for any other name.

    Example:

    >>> from mb_ops import backends, config
    >>> core = backends.backend_module("core")
    >>> core.__name__ == backends.backend_descriptor().module + ".core"
    True
    """
    package = load_backend()
    module = _CONTRACT_MODULE_CACHE.get((package, name))
    if module is None:
        if name not in CONTRACT_MODULES:
            raise ValueError(
                f"{name!r} is not a backend contract module. Expected one of "
                f"{', '.join(CONTRACT_MODULES)}."
            )
        module = importlib.import_module(f"{package.__name__}.{name}")
        _CONTRACT_MODULE_CACHE[(package, name)] = module  # only once fully imported
    return module


# (backend package, contract module name) -> module: `fit` and `predict` look modules up
# on every call, and `importlib.import_module` costs a few microseconds each time.
_CONTRACT_MODULE_CACHE: dict[tuple[ModuleType, str], ModuleType] = {}


def set_backend(backend: str) -> None:
    """Choose the backend before first use. Once a backend is in use it cannot change.

    Keras reloads every module to switch; mb refuses instead, because objects
    made on the old backend would silently stop working. Start a new process
    with ``MB_BACKEND`` set to switch.

    Args:
        backend: a backend name.

    Raises:
        RuntimeError: if another backend is already in use.

    Example:

    >>> from mb_ops import backends, config
    >>> config.set_backend(config.backend())  # the one in use: nothing changes
    >>> other = "numpy" if config.backend() != "numpy" else "jax"
    >>> try:
    ...     config.set_backend(other)
    ... except RuntimeError:
    ...     print("refused")
    refused
    """
    name = backend.strip().lower()
    if _Active.name is not None:
        if name == _Active.name:
            return
        raise RuntimeError(
            f"The backend is already {_Active.name!r} in this process and cannot change to "
            f"{name!r}. Set MB_BACKEND={name} before starting Python instead."
        )
    backends = available_backends()
    if name not in backends:
        known = ", ".join(sorted(set(backends) | set(OFFICIAL_BACKENDS)))
        if name in OFFICIAL_BACKENDS:
            raise BackendNotInstalledError(
                f"The {name!r} backend is not installed.{_install_hint(name)}"
            )
        raise ValueError(f"Unknown backend {name!r}. Known backends: {known}.")
    with _Active.lock:
        _Active.name = name
        _Active.descriptor = backends[name]
