"""Private engine APIs are used only inside a package's `_compat.py`.

An engine's private names (``torch._foreach_add_``, ``jax._src``, ``tensorflow.python``,
``tf.__internal__``, ``tf.compat.v1``, ``openvino._pyopenvino``, ``numpy._core``) change
without notice between releases. Each package that needs one keeps it in its ``_compat.py`` (with a
public fallback where one exists, and a test that the fast path is still taken), so an
engine upgrade has exactly one file to look at. This test reads every module of every
package (code, not comments or docstrings) and names each private use found elsewhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("torch", "jax", "jaxlib", "tensorflow", "openvino", "numpy")
# Dunders are Python's protocols (``torch.nn.Module.__call__``), not engine privates;
# TensorFlow's ``tf.__internal__`` namespace is the exception.
_PRIVATE_DUNDERS = {"__internal__"}
# Namespaces whose children are op names, not Python privates (torch.ops.aten._foo is the
# aten op `_foo`, reached through torch's public op registry).
_OP_NAMESPACES = {("torch", "ops")}
# Packages TensorFlow documents as not public (its generated protos, its Python internals).
_PRIVATE_PACKAGES = {("tensorflow", "python"), ("tensorflow", "core")}


def _private(segment: str) -> bool:
    dunder = segment.startswith("__") and segment.endswith("__")
    return segment.startswith("_") and (not dunder or segment in _PRIVATE_DUNDERS)


def _engine_aliases(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Local names bound to engine modules: ``tf`` -> ("tensorflow",), ``jnp`` -> ..."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = tuple(alias.name.split("."))
                if parts[0] in ENGINES:
                    if alias.asname:
                        aliases[alias.asname] = parts
                    else:
                        aliases[parts[0]] = parts[:1]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = tuple(node.module.split("."))
            if parts[0] in ENGINES:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = (*parts, alias.name)
    return aliases


def _chain(node: ast.Attribute) -> tuple[str, list[str]] | None:
    """``a.b.c`` -> ("a", ["b", "c"]); None when the root is not a plain name."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return node.id, attrs[::-1]


def _violation(path: tuple[str, ...]) -> str | None:
    """The private prefix of the dotted ``path`` (``tensorflow.python``), or None."""
    if path[:2] in _OP_NAMESPACES:
        return None
    for i, segment in enumerate(path):
        if _private(segment):
            return ".".join(path[: i + 1])
        if path[i : i + 2] == ("compat", "v1") or (path[:2] in _PRIVATE_PACKAGES and i == 1):
            return ".".join(path[: i + 2] if segment == "compat" else path[: i + 1])
    return None


def private_uses(source: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every private engine API the module's code uses."""
    tree = ast.parse(source)
    aliases = _engine_aliases(tree)
    found = []
    inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = tuple(alias.name.split("."))
                if name[0] in ENGINES and (bad := _violation(name)):
                    found.append((node.lineno, bad))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = tuple(node.module.split("."))
            if module[0] in ENGINES:
                for alias in node.names:
                    if bad := _violation((*module, alias.name)):
                        found.append((node.lineno, bad))
        elif isinstance(node, ast.Attribute) and id(node) not in inner:
            chain = _chain(node)
            if (
                chain
                and chain[0] in aliases
                and (bad := _violation((*aliases[chain[0]], *chain[1])))
            ):
                found.append((node.lineno, bad))
    return sorted(set(found))


def _modules():
    for path in sorted(ROOT.glob("packages/*/src/**/*.py")):
        if path.name != "_compat.py":
            yield path


def test_private_engine_apis_live_only_in_compat_modules():
    offenders = []
    for path in _modules():
        for line, name in private_uses(path.read_text()):
            offenders.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not offenders, (
        "Private engine APIs used outside a `_compat.py` (move each into the package's "
        "_compat.py, with a public fallback where one exists and a test that the fast "
        "path is taken):\n" + "\n".join(offenders)
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import torch\ntorch._foreach_add_(a, b)", [(2, "torch._foreach_add_")]),
        (
            "import tensorflow as tf\ntf.__internal__.FuncGraph('g')",
            [(2, "tensorflow.__internal__")],
        ),
        ("import tensorflow as tf\ntf.compat.v1.placeholder()", [(2, "tensorflow.compat.v1")]),
        ("from tensorflow.python.eager import context", [(1, "tensorflow.python")]),
        ("from jax._src.interpreters import pxla", [(1, "jax._src")]),
        ("from openvino import _pyopenvino", [(1, "openvino._pyopenvino")]),
        ("from torch.utils._python_dispatch import M", [(1, "torch.utils._python_dispatch")]),
        ("import tensorflow as tf\ntf.raw_ops.Unique(x=x)", []),
        ("from tensorflow.core.protobuf import saved_model_pb2", [(1, "tensorflow.core")]),
        ("import jax.numpy as jnp\njnp._src", [(2, "jax.numpy._src")]),
        ("import torch\ntorch.ops.aten._local_scalar_dense.default", []),
        ("import torch\ntorch.nn.functional.relu(x)\n# torch._int_mm in a comment", []),
        ("import torch\ntorch.nn.Module.__call__(m, x)", []),
        ('"""Uses ``torch._int_mm``."""\nimport jax\njax.__version__', []),
        ("import numpy as np\nnp._core.umath", [(2, "numpy._core")]),
        ("import numpy as np\nnp.lib.stride_tricks.sliding_window_view(x, 2)", []),
    ],
)
def test_the_scan_finds_private_uses_in_code_only(source, expected):
    assert private_uses(source) == expected
