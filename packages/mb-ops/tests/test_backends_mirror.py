"""Every installed backend lays out its code the same way, read from source (no engine runs).

A reader who knows where ``sort`` lives in one backend finds it at the same path in
every other: each op is defined in the file named after its group in ``mb_ops._ops``
(``numpy_order_statistics`` -> ``numpy/_order_statistics.py``), every other contract name in the
same file in every backend, and an op subpackage holds only op-group files and its
``_common.py`` helpers.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import pathlib

import pytest

import mb_ops.ops  # noqa: F401  (importing it registers every op)
from mb_ops._backends import available_backends
from mb_ops._contract import OPTIONAL, REQUIRED
from mb_ops._ops._machinery import REGISTRY

OP_MODULES = ("core", "numpy", "nn", "math", "linalg", "image", "random", "rnn")
SUBPACKAGES = ("numpy", "nn", "image")


def _source_roots() -> dict[str, pathlib.Path]:
    roots = {}
    for name, descriptor in available_backends().items():
        spec = importlib.util.find_spec(descriptor.module)
        if spec is None or not spec.submodule_search_locations:
            continue
        roots[name] = pathlib.Path(next(iter(spec.submodule_search_locations)))
    return roots


ROOTS = _source_roots()


@functools.cache
def _bindings(root: pathlib.Path, module: str) -> dict[str, str | tuple[str, str]] | None:
    """Top-level names of a module: "def" when defined there, (module, name) when imported."""
    base = root.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            break
    else:
        return None
    names: dict[str, str | tuple[str, str]] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names[node.name] = "def"
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update((t.id, "def") for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.update((a.asname or a.name, (node.module, a.name)) for a in node.names)
    return names


def defining_module(root: pathlib.Path, package: str, module: str, name: str) -> str | None:
    """The module (relative to the package) whose top level defines ``name``.

    Re-exports (``from <package>.x import name as name``) are followed; None when
    the name is not defined in the package.
    """
    for _ in range(10):
        binding = (_bindings(root, module) or {}).get(name)
        if binding is None:
            return None
        if binding == "def":
            return module
        source, name = binding
        if not source.startswith(package + "."):
            return None
        module = source[len(package) + 1 :]
    raise AssertionError(f"re-export loop for {package}.{module}.{name}")


def _group_file(info) -> str:
    """``numpy_order_statistics`` -> ``numpy._order_statistics``."""
    return f"{info.backend_module}._{info.group.split('_', 1)[1]}"


GROUP_FILES = {
    (info.backend_module, info.backend_name): _group_file(info)
    for info in REGISTRY.values()
    if info.backend_module in SUBPACKAGES and info.group.startswith(f"{info.backend_module}_")
}
"""(contract module, name) -> the file every backend defines it in, for numpy and nn ops."""


def _contract_names():
    for module in OP_MODULES:
        for name in (*REQUIRED[module], *OPTIONAL.get(module, ())):
            yield module, name


needs_two = pytest.mark.skipif(len(ROOTS) < 2, reason="fewer than two backends installed")


@needs_two
def test_each_contract_name_is_defined_in_the_same_file_in_every_backend():
    differing = []
    for module, name in _contract_names():
        where = {}
        for backend, root in ROOTS.items():
            found = defining_module(root, f"mb_backend_{backend}", module, name)
            if found is not None:
                where[backend] = found
        if len(set(where.values())) > 1:
            differing.append(f"{module}.{name}: {where}")
    assert not differing, "\n".join(differing)


@pytest.mark.parametrize("backend", sorted(ROOTS))
def test_each_op_is_defined_in_the_file_named_after_its_group(backend):
    root = ROOTS[backend]
    misplaced = []
    for module, name in _contract_names():
        wanted = GROUP_FILES.get((module, name))
        if wanted is None:
            continue
        found = defining_module(root, f"mb_backend_{backend}", module, name)
        if found is not None and found != wanted:
            misplaced.append(f"{module}.{name} is in {found}.py, expected {wanted}.py")
    assert not misplaced, "\n".join(misplaced)


@pytest.mark.parametrize("backend", sorted(ROOTS))
def test_op_subpackages_hold_only_op_groups_and_common_helpers(backend):
    root = ROOTS[backend]
    package = f"mb_backend_{backend}"
    assert (root / "core.py").exists() and not (root / "core").exists(), "core is one module"
    strays = []
    for sub in SUBPACKAGES:
        defined_here = {
            defining_module(root, package, sub, name)
            for name in (*REQUIRED[sub], *OPTIONAL.get(sub, ()))
        }
        for path in sorted((root / sub).glob("_*.py")):
            module = f"{sub}.{path.stem}"
            if path.stem not in ("__init__", "_common") and module not in defined_here:
                strays.append(f"{sub}/{path.name}")
    assert not strays, f"files that are neither an op group nor _common.py: {strays}"


def test_the_group_of_an_op_is_recorded():
    assert REGISTRY[("numpy", "sort")].group == "numpy_order_statistics"
    assert REGISTRY[("nn", "max_pool")].group == "nn_conv"
    assert REGISTRY[("nn", "max_pool")].backend_module == "nn"
