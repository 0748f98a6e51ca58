"""A griffe extension for the docs build: doctest blocks in docstrings become code.

mb's docstrings show examples as bare doctest blocks (``>>>`` lines and their output),
which Markdown would render as nested quotes. This wraps each block in a ``pycon``
fence before mkdocstrings renders it; the docstrings themselves stay plain doctests,
which the doctest leg runs.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap each doctest block (a ``>>>`` line up to the next blank line) in a fence."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if not stripped.startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        previous = out[-1] if out else ""
        # A fence may not continue a paragraph; under a section title ("Example:",
        # less indented) it must follow the title directly, or griffe sees no section.
        if previous.strip() and len(previous) - len(previous.lstrip()) >= len(indent):
            out.append("")
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest blocks of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
