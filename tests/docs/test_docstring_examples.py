"""Every example in the docstrings of mb's public packages runs and prints what it shows.

The examples are the ``>>>`` blocks the documentation site renders (see ``mkdocs.yml``);
each docstring with examples is one test, run with the standard ``doctest`` module in
its own module's globals, after ``clear_session()`` (so layer names start afresh, as
they do in a new program). The ``docs`` job runs this file on the numpy backend, the
eager reference. Examples that train (``fit``, ``value_and_gradients``, ...) need a
backend that can train: where the active one cannot, those run together in one
subprocess on jax, and each still reports as its own test.

Not collected here: mb-applications (each example builds a whole model, tens of
seconds; ``packages/mb-applications/tests/test_doctests.py`` runs them) and the
backend packages (engine glue; their packages' tests run on their engines).

Run alone: ``MB_BACKEND=numpy uv run pytest tests/docs``; one docstring:
``... -k Sequential``; ``python tests/docs/test_docstring_examples.py NAME...`` runs
the named docstrings and prints their results as JSON.
"""

from __future__ import annotations

import doctest
import importlib
import json
import os
import pkgutil
import subprocess
import sys
from functools import cache

import pytest

PACKAGES = ("mb_graph", "mb_ops", "mb_layers", "mb_data", "mb_train", "mb_saving", "mb_export")
UMBRELLA = "mb"
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# Docstrings whose examples train: they run where the backend can (jax when it cannot).
TRAINS = frozenset(
    {
        "mb_train._trainer._gradients.value_and_gradients",
        "mb_train._trainer._loop.TrainerMixin.fit",
        "mb_train.distillation._distiller.Distiller",
        "mb_train.callbacks._orbax.OrbaxCheckpoint",
        "mb_ops.linalg.jvp",
        "mb_ops._ops.core.custom_gradient",
        "mb_ops.core.stop_gradient",
    }
)
TRAINING_BACKEND = "jax"


def _modules(package: str):
    top = importlib.import_module(package)
    yield top
    for info in pkgutil.walk_packages(top.__path__, f"{package}."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue  # running it is the command line, not an import
        yield importlib.import_module(info.name)


@cache
def collect() -> dict[str, doctest.DocTest]:
    """Every docstring with examples in the packages, by its doctest name."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    found: dict[str, doctest.DocTest] = {}
    for package in (*PACKAGES, UMBRELLA):
        for module in _modules(package):
            for test in finder.find(module):
                if test.examples:
                    found.setdefault(test.name, test)
    return found


def run(name: str) -> tuple[int, int, str]:
    """Runs one docstring's examples: (attempted, failed, doctest's report)."""
    from mb_ops import clear_session

    test = collect()[name]
    test.globs = dict(test.globs)  # a fresh copy per run: examples may rebind names
    # Names only: the garbage collection of free_memory=True costs ~0.3 s per docstring
    # in a process holding every engine, which was most of this leg's time.
    clear_session(free_memory=False)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    result = runner.run(test, out=report.append, clear_globs=True)
    return result.attempted, result.failed, "".join(report)


def _can_train() -> bool:
    from mb_ops import backends

    return backends.unsupported_reason("training", "value_and_grad") is None


@cache
def _trained_elsewhere() -> dict[str, list]:
    """The TRAINS docstrings run in one subprocess on TRAINING_BACKEND."""
    env = {**os.environ, "MB_BACKEND": TRAINING_BACKEND}
    names = sorted(TRAINS)
    proc = subprocess.run(
        [sys.executable, __file__, *names], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"the {TRAINING_BACKEND} subprocess failed:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout.splitlines()[-1])


NAMES = sorted(collect())


def test_the_examples_are_collected():
    # The most-used entry points have examples (a refactor that hides them from the
    # finder, or a module that stops importing, must not pass silently).
    for name in (
        "mb_layers.layers._dense.Dense",
        "mb_layers._sequential.Sequential",
        "mb_train._model._model.Model",
        *TRAINS,
    ):
        assert name in NAMES, f"no examples found for {name}"


@pytest.mark.parametrize("name", NAMES)
def test_docstring_examples(name):
    if name in TRAINS and not _can_train():
        attempted, failed, report = _trained_elsewhere()[name]
        where = f" (run on {TRAINING_BACKEND}: the active backend cannot train)"
    else:
        attempted, failed, report = run(name)
        where = ""
        if failed and "inference-only" in report:
            where = f" (it trains: list {name} in TRAINS)"
    if attempted == 0:
        pytest.skip(f"every example of {name} is marked `# doctest: +SKIP`")
    assert failed == 0, f"{failed} of {attempted} examples of {name} failed{where}:\n{report}"


if __name__ == "__main__":
    # python tests/docs/test_docstring_examples.py NAME... -> {name: [attempted, failed, report]}
    results = {name: list(run(name)) for name in sys.argv[1:]}
    print(json.dumps(results))
