"""A griffe extension for the docs build: docstrings composed when the code runs.

Some classes and functions share their docstring text instead of writing it twice: the
text is composed at definition time (``__doc__ = _DOC.format(...)`` in a class body, or a
decorator named ``*_doc`` that sets or completes ``__doc__``). griffe reads the source
without running it and sees no docstring, or an incomplete one; this takes the one
Python built, by importing the object, and fences
its doctest blocks as ``doctest_fences`` does for the others (which ran before it).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from pathlib import Path
from typing import Any

import griffe


def _fence_doctests():
    spec = importlib.util.spec_from_file_location(
        "_doctest_fences", Path(__file__).with_name("doctest_fences.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fence_doctests


fence_doctests = _fence_doctests()


def runtime_docstring(path: str) -> str | None:
    """The ``__doc__`` of the object at the dotted `path` once imported, or None."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # not importable here (no backend, ...): keep griffe's view
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return None
        doc = getattr(obj, "__doc__", None)
        return inspect.cleandoc(doc) if isinstance(doc, str) else None
    return None


class RuntimeDocstrings(griffe.Extension):
    """Gives a class or function whose source has no docstring the one it gets at run time."""

    def _fill(self, obj: griffe.Object) -> None:
        composed = "__doc__" in obj.members or any(
            str(decorator.callable_path).endswith("_doc") for decorator in obj.decorators
        )
        if obj.docstring is not None and not composed:
            return
        doc = runtime_docstring(obj.path)
        if doc:
            obj.docstring = griffe.Docstring(fence_doctests(doc), parent=obj)

    def on_class_members(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        self._fill(cls)

    def on_function_instance(self, *, func: griffe.Function, **kwargs: Any) -> None:
        self._fill(func)
