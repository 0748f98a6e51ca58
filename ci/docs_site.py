"""Checks a built documentation site (after ``mkdocs build --strict``).

    python ci/docs_site.py SITE_DIR

Fails, naming what is wrong, when: the search index is missing or empty; a page has
no text in its article; an op of ``mb.ops`` (and its ``numpy``/``nn``/``linalg``/
``image`` submodules) or a layer of ``mb.layers`` has no entry (an anchor
``mb.ops.NAME`` / ``mb.layers.NAME``) in the API reference.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path


class _Article(HTMLParser):
    """The text inside a page's ``<article>`` and the ``id`` attributes in it."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.text: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        for key, value in attrs:
            if key == "id" and value:
                self.ids.add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth > 0:
            self.text.append(data)


def _public(module_name: str, want) -> list[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if n[0] != "_"]
    return sorted(n for n in names if want(getattr(module, n, None)))


def check(site: Path) -> list[str]:
    problems: list[str] = []
    index = site / "search" / "search_index.json"
    if not index.is_file():
        problems.append(f"no search index at {index}")
    elif not json.loads(index.read_text()).get("docs"):
        problems.append(f"the search index {index} lists no documents")

    ids_by_page: dict[str, set[str]] = {}
    pages = sorted(p for p in site.rglob("*.html") if p.name != "404.html")
    if not pages:
        problems.append(f"no pages under {site}")
    for page in pages:
        parser = _Article()
        parser.feed(page.read_text(encoding="utf-8"))
        text = re.sub(r"\s+", " ", "".join(parser.text)).strip()
        rel = page.relative_to(site).as_posix()
        # A page holding only its title (or nothing) is empty.
        if len(text.split()) < 5:
            problems.append(f"{rel}: the page is empty ({text!r})")
        ids_by_page[rel] = parser.ids
    all_ids = set().union(*ids_by_page.values()) if ids_by_page else set()

    def is_op(obj) -> bool:
        return callable(obj) and not inspect.ismodule(obj)

    for namespace in ("mb.ops", "mb.ops.numpy", "mb.ops.nn", "mb.ops.linalg", "mb.ops.image"):
        missing = [n for n in _public(namespace, is_op) if f"{namespace}.{n}" not in all_ids]
        if missing:
            problems.append(f"{len(missing)} ops of {namespace} have no entry: {missing}")

    from mb_layers import Layer

    def is_layer(obj) -> bool:
        return inspect.isclass(obj) and issubclass(obj, Layer)

    layers = importlib.import_module("mb.layers")
    # A lazily imported layer (TFSMLayer) is documented under its own package.
    missing = [
        n
        for n in _public("mb.layers", is_layer)
        if f"mb.layers.{n}" not in all_ids
        and f"{getattr(layers, n).__module__.split('.')[0]}.{n}" not in all_ids
    ]
    if missing:
        problems.append(f"{len(missing)} layers of mb.layers have no entry: {missing}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python ci/docs_site.py SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    problems = check(site)
    for problem in problems:
        print(f"docs_site: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"docs_site: {site} ok ({len(list(site.rglob('*.html')))} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
