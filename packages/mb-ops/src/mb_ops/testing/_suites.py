"""Test functions every backend (or package) runs the same way, written once."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

ENGINES = ("jax", "torch", "tensorflow", "openvino")
"""The engines a backend may import (the numpy backend imports none of them)."""


def conformance_tests(package: str) -> dict[str, Callable[..., Any]]:
    """The kit's four tests for the backend package ``package``, to put in a test module::

        globals().update(testing.conformance_tests("mb_backend_numpy"))

    ``test_op_conforms`` (every case), ``test_random_conforms`` (the random functions),
    ``test_backend_contract_is_complete`` and
    ``test_every_function_takes_the_contracts_signature``; run with ``MB_BACKEND`` set
    to that backend.
    """
    import pytest

    from mb_ops import testing

    @pytest.mark.parametrize("case", testing.pytest_cases())
    def test_op_conforms(case: Any) -> None:
        testing.run_case(case)

    @pytest.mark.parametrize("check", testing.pytest_random_checks())
    def test_random_conforms(check: Any) -> None:
        testing.run_random_check(check)

    def test_backend_contract_is_complete() -> None:
        assert testing.check_backend_contract(package) == []

    def test_every_function_takes_the_contracts_signature() -> None:
        assert testing.check_backend_signatures(package) == []

    tests = (
        test_op_conforms,
        test_random_conforms,
        test_backend_contract_is_complete,
        test_every_function_takes_the_contracts_signature,
    )
    return {test.__name__: test for test in tests}


def engines_loaded_by(code: str, backend: str = "numpy", timeout: float = 300) -> list[str]:
    """The engines in ``sys.modules`` after running ``code`` in a fresh interpreter
    with ``MB_BACKEND=backend`` (a failing ``code`` fails with its stderr).

    ``engines_loaded_by("import mb_data")`` is ``[]`` when importing mb_data under
    the numpy backend loads no engine.
    """
    script = f"{code}\nimport sys\nprint([e for e in {ENGINES!r} if e in sys.modules])"
    env = {**os.environ, "MB_BACKEND": backend}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout, env=env
    )
    assert result.returncode == 0, result.stderr
    return ast.literal_eval(result.stdout.strip().splitlines()[-1])


def run_keras(
    script: str,
    *args: str,
    backend: str = "jax",
    timeout: float = 600,
    input: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    **env: str | None,
) -> subprocess.CompletedProcess:
    """Run ``script`` (Python source, given ``args`` as ``sys.argv[1:]``) in a fresh
    interpreter with Keras 3 on ``backend`` (``KERAS_BACKEND``; ``MB_BACKEND`` unset,
    TensorFlow's logs quiet, ``env`` added: a ``None`` value unsets that variable),
    as the tests that compare mb with Keras do. ``input`` goes to its stdin; ``cwd``
    is the folder it runs in.

    Returns the finished process (``.stdout`` holds what the script printed); a script
    that fails fails the caller with the end of its stderr.
    """
    environ = {k: v for k, v in os.environ.items() if k != "MB_BACKEND"}
    environ.update(KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3")
    for name, value in env.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    result = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=input,
        cwd=cwd,
    )
    assert result.returncode == 0, f"the Keras run failed:\n{result.stderr[-4000:]}"
    return result


def keras_json(script: str, *args: str, **options: Any) -> Any:
    """``run_keras(script, *args, **options)``, and the JSON of the last line it printed
    (the way the tests that compare mb with Keras hand Keras's results back)."""
    return json.loads(run_keras(script, *args, **options).stdout.strip().splitlines()[-1])


KERAS_CASES_HEAD = r"""
import json, sys
import numpy as np
import keras
folder = sys.argv[1]
cases = json.load(open(f"{folder}/cases.json"))
arrays = np.load(f"{folder}/arrays.npz")
"""
"""The start of every `keras_cases` script: ``folder``, ``cases`` (the JSON list) and
``arrays`` (the ``.npz`` of named arrays) are defined after it."""


def keras_cases(script: str, cases: Any, arrays: dict[str, Any], **options: Any) -> Any:
    """Run ``KERAS_CASES_HEAD + script`` in Keras 3 (`run_keras`, with ``options``) on
    ``cases`` (anything JSON) and ``arrays`` (``{name: array}``), and return the arrays
    the script saved with ``np.savez(f"{folder}/results.npz", ...)`` as a dict.

    The way the tests that compare many cases with Keras hand them over in one
    subprocess: JSON for the settings, one ``.npz`` for the arrays, both ways.
    """
    import tempfile

    import numpy as np

    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "cases.json"), "w") as f:
            json.dump(cases, f)
        np.savez(os.path.join(folder, "arrays.npz"), **arrays)
        run_keras(KERAS_CASES_HEAD + script, folder, **options)
        with np.load(os.path.join(folder, "results.npz")) as found:
            return {name: found[name] for name in found.files}


def check_doctests(module: Any, flags: int | None = None, **extraglobs: Any) -> None:
    """Run the docstring examples of ``module`` (a module or its dotted name) with
    ``extraglobs`` in their namespace; assert there is at least one and none fails.

    ``flags``: the doctest option flags (default ``ELLIPSIS``).
    """
    import doctest
    import importlib

    if isinstance(module, str):
        module = importlib.import_module(module)
    flags = doctest.ELLIPSIS if flags is None else flags
    result = doctest.testmod(module, extraglobs=extraglobs, optionflags=flags)
    assert result.attempted > 0, f"{module.__name__} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {module.__name__} failed"
