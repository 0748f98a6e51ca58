"""The backend contract: the names and signatures each contract module provides.

The names are those of Keras 3.15.1's backend modules (``keras/src/backend/<engine>/``),
declared with their one signature each in the Protocols of ``mb_ops._protocols``. A
backend that cannot provide a name lists it in the module's ``UNSUPPORTED`` dict
(name -> reason) and, where it defines the name at all, raises ``NotImplementedError``
naming the op and the backend.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

from mb_ops import _backends
from mb_ops._backends import CONTRACT_MODULES
from mb_ops._protocols import PROTOCOLS


def protocol_members(protocol: type | None) -> dict[str, inspect.Signature | None]:
    """The names a Protocol declares: a function's signature (without ``self``), or None
    for an attribute (a constant or a class, declared as a read-only property)."""
    if protocol is None:
        return {}
    members: dict[str, inspect.Signature | None] = {}
    for cls in reversed(protocol.__mro__):
        if cls in (object, protocol.__mro__[-1]) or cls.__module__ == "typing":
            continue
        for name in getattr(cls, "__annotations__", {}):
            members[name] = None
        for name, value in vars(cls).items():
            if name.startswith("_"):
                continue
            if isinstance(value, property):
                members[name] = None
            elif inspect.isfunction(value):
                signature = inspect.signature(value)
                parameters = list(signature.parameters.values())[1:]  # drop self
                members[name] = signature.replace(
                    parameters=[p.replace(annotation=p.empty) for p in parameters],
                    return_annotation=inspect.Signature.empty,
                )
    return dict(sorted(members.items()))


REQUIRED: dict[str, tuple[str, ...]] = {
    module: tuple(protocol_members(required)) for module, (required, _) in PROTOCOLS.items()
}
"""Per contract module, the names every backend provides (or declares unsupported)."""

OPTIONAL: dict[str, tuple[str, ...]] = {
    module: tuple(protocol_members(optional))
    for module, (_, optional) in PROTOCOLS.items()
    if optional is not None
}
"""Names a backend may provide; mb uses them when present."""

if set(REQUIRED) != set(CONTRACT_MODULES):  # keep the two lists in step
    raise RuntimeError("mb_ops._protocols.PROTOCOLS must cover every CONTRACT_MODULES entry.")


def declared_unsupported(module: Any) -> dict[str, str]:
    """The module's ``UNSUPPORTED`` dict (op name -> reason), or {}."""
    table = getattr(module, "UNSUPPORTED", None)
    return dict(table) if isinstance(table, dict) else {}


def lookup(module_name: str, name: str) -> Any:
    """The active backend's ``<module>.<name>``, or None when it lacks it or declares it
    unsupported.

    The one way mb asks a backend for an optional capability (a fused optimizer
    update, background compilation) or for a function it may decline.

    Example:
        >>> lookup("training", "no_such_primitive") is None  # doctest: +SKIP
        True
    """
    module = _backends.backend_module(module_name)
    table = getattr(module, "UNSUPPORTED", None)  # (not copied: asked on every `fit`)
    if isinstance(table, dict) and name in table:
        return None
    return getattr(module, name, None)


def unsupported_reason(module_name: str, name: str) -> str | None:
    """Why the active backend does not provide ``<module>.<name>``, or None when it does.

    Args:
        module_name: a contract module, e.g. ``"training"``.
        name: a function of that module, e.g. ``"value_and_grad"``.

    Returns:
        None, or a string: the reason the backend declares (e.g. numpy cannot
        differentiate), or that the module lacks the name.

    Example:

    >>> from mb_ops import backends
    >>> backends.unsupported_reason("numpy", "add") is None
    True
    >>> reason = backends.unsupported_reason("training", "value_and_grad")
    >>> reason is None or isinstance(reason, str)  # None on backends that train
    True
    """
    module = _backends.backend_module(module_name)
    declared = declared_unsupported(module).get(name)
    if declared is not None:
        return declared
    if getattr(module, name, None) is None:
        return f"the backend's {module_name!r} module does not provide {name!r}"
    return None


def _import_contract_module(package_name: str, module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package_name}.{module_name}")
    except ModuleNotFoundError as error:
        if error.name != f"{package_name}.{module_name}":
            raise
        return None


def check_backend_contract(package_name: str) -> list[str]:
    """The required ``module.name`` entries a backend package neither provides nor declares.

    Args:
        package_name: the backend's import name, e.g. ``"mb_backend_numpy"``.

    Returns:
        Sorted ``"module.name"`` strings; empty when the backend is complete. A
        missing module counts as missing all its names (``"module.*"`` when the
        module requires none).

    Example:
        >>> check_backend_contract("mb_backend_numpy")  # doctest: +SKIP
        []
    """
    missing: list[str] = []
    for module_name, names in REQUIRED.items():
        module = _import_contract_module(package_name, module_name)
        if module is None:
            missing.extend(f"{module_name}.{n}" for n in names)
            if not names:
                missing.append(f"{module_name}.*")
            continue
        unsupported = declared_unsupported(module)
        for name in names:
            if not hasattr(module, name) and name not in unsupported:
                missing.append(f"{module_name}.{name}")
    return sorted(missing)


def _is_catch_all(signature: inspect.Signature) -> bool:
    kinds = [p.kind for p in signature.parameters.values()]
    return kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]


def _describe(parameters: list[inspect.Parameter]) -> str:
    return "(" + ", ".join(str(p.replace(annotation=p.empty)) for p in parameters) + ")"


def signature_mismatch(function: Any, expected: inspect.Signature) -> str | None:
    """How ``function``'s signature differs from ``expected`` (names, kinds and defaults;
    annotations are ignored), or None when they agree."""
    try:
        actual = inspect.signature(function)
    except (TypeError, ValueError):
        return f"has no inspectable signature; expected {expected}"
    got = list(actual.parameters.values())
    want = list(expected.parameters.values())
    same = len(got) == len(want) and all(
        (g.name, g.kind) == (w.name, w.kind)
        and (g.default is w.default or (g.default is not g.empty and g.default == w.default))
        for g, w in zip(got, want, strict=False)
    )
    return None if same else f"takes {_describe(got)}; the contract says {expected}"


def check_backend_signatures(package_name: str) -> list[str]:
    """Every contract function of a backend whose signature differs from the Protocol's.

    Names the backend declares unsupported may be left out or take
    ``(*args, **kwargs)``; constants and classes are only checked for presence.

    Args:
        package_name: the backend's import name, e.g. ``"mb_backend_numpy"``.

    Returns:
        Sorted ``"module.name: how it differs"`` strings; empty when every
        signature is the contract's.

    Example:
        >>> check_backend_signatures("mb_backend_numpy")  # doctest: +SKIP
        []
    """
    problems: list[str] = []
    for module_name, (required, optional) in PROTOCOLS.items():
        module = _import_contract_module(package_name, module_name)
        if module is None:
            continue
        unsupported = declared_unsupported(module)
        members = {**protocol_members(optional), **protocol_members(required)}
        for name, expected in members.items():
            function = getattr(module, name, None)
            if function is None or expected is None or inspect.isclass(function):
                continue
            if name in unsupported and _is_catch_all(inspect.signature(function)):
                continue
            problem = signature_mismatch(function, expected)
            if problem is not None:
                problems.append(f"{module_name}.{name}: {problem}")
    return sorted(problems)
