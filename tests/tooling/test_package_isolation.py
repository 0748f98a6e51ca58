"""Each package's tests need only what the package declares: its dependencies and `dev` group.

`uv run --isolated --package P pytest packages/P` builds an environment from exactly
those; the matrix runs it for the light packages. Here every package, heavy ones
included, is checked statically: each module its tests import unconditionally must
come from a distribution in the locked closure of P's dependencies and `dev` group.
"""

from __future__ import annotations

import ast
import importlib.metadata
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import workspace  # noqa: E402

PACKAGES = workspace.packages()
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _lock() -> dict[str, dict]:
    data = tomllib.loads((ROOT / "uv.lock").read_text())
    return {workspace.normalize(p["name"]): p for p in data["package"]}


def closure(package: str, lock: dict[str, dict]) -> set[str]:
    """Distributions installed with `package`, its extras' requests and its `dev` group."""
    entry = lock[workspace.normalize(package)]
    todo = [*entry.get("dependencies", []), *entry.get("dev-dependencies", {}).get("dev", [])]
    seen: set[str] = {workspace.normalize(package)}
    while todo:
        dep = todo.pop()
        name = workspace.normalize(dep["name"])
        extras = dep.get("extra", [])
        key = f"{name}[{','.join(extras)}]"
        if key in seen:
            continue
        seen.add(key)
        seen.add(name)
        found = lock.get(name, {})
        todo += found.get("dependencies", [])
        for extra in extras:
            todo += found.get("optional-dependencies", {}).get(extra, [])
    return {s for s in seen if "[" not in s}


def _guarded(node: ast.AST, parents: dict) -> bool:
    """Inside a `try` that catches ImportError (an optional import)."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                names = handler.type
                elts = names.elts if isinstance(names, ast.Tuple) else [names]
                if handler.type is None or any(
                    isinstance(e, ast.Name) and e.id in _IMPORT_ERRORS for e in elts
                ):
                    return True
    return False


def imported_modules(path: Path) -> set[str]:
    """Top-level names of the modules a test file imports without an ImportError guard."""
    tree = ast.parse(path.read_text(), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if not _guarded(node, parents):
            found |= {n.split(".")[0] for n in names}
    return found


def _registered_by_conftest(folder: Path) -> set[str]:
    """Helper modules a conftest registers under a name of its own (string constants)."""
    names = set()
    for conftest in folder.rglob("conftest.py"):
        for node in ast.walk(ast.parse(conftest.read_text())):
            if isinstance(node, ast.Constant) and str(node.value).isidentifier():
                names.add(node.value)
    return names


def _providers() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for module, dists in importlib.metadata.packages_distributions().items():
        out[module] = {workspace.normalize(d) for d in dists}
    for package in PACKAGES.values():  # editable installs list no top-level modules
        for module in package.import_names:
            out.setdefault(module, set()).add(workspace.normalize(package.name))
    return out


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_package_tests_import_only_what_the_package_declares(package):
    folder = PACKAGES[package].folder / "tests"
    local = {p.stem for p in folder.rglob("*.py")} | {
        p.name for p in folder.rglob("*") if p.is_dir()
    }
    local |= _registered_by_conftest(folder)
    available = closure(package, _lock())
    providers = _providers()
    missing = {}
    for path in sorted(folder.rglob("*.py")):
        for module in imported_modules(path) - local - set(sys.stdlib_module_names):
            dists = providers.get(module)
            if dists is None:
                missing.setdefault(module, set()).add(f"{path.name} (no installed provider)")
            elif not dists & available:
                missing.setdefault(module, set()).add(path.name)
    assert not missing, (
        f"{package}'s tests import modules that neither its dependencies nor its `dev` "
        f"dependency group provide (add them to [dependency-groups] dev in "
        f"packages/{PACKAGES[package].folder.name}/pyproject.toml, or guard the import with "
        f"pytest.importorskip): {dict(sorted((k, sorted(v)) for k, v in missing.items()))}"
    )


def test_every_package_declares_a_dev_group_with_pytest():
    for package in PACKAGES.values():
        names = [workspace.parse_requirement(r)[0] for r in package.groups.get("dev", [])]
        assert "pytest" in names, f"{package.name} has no [dependency-groups] dev with pytest"


def test_closure_follows_dependencies_extras_and_the_dev_group():
    lock = _lock()
    ops = closure("mb-ops", lock)
    assert {"mb-graph", "numpy", "ml-dtypes", "optree", "pytest"} <= ops
    assert "torch" not in ops and "jax" not in ops
    umbrella = closure("mb-framework", lock)
    assert {"mb-backend-jax", "jax", "mb-train"} <= umbrella
