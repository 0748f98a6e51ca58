"""Skips for what a backend declares unsupported, and only for that."""

from __future__ import annotations

import functools
from typing import Any

from mb_ops import _backends, _contract


def is_declared_unsupported(error: BaseException) -> bool:
    """Whether ``error`` is the active backend refusing an op it declares unsupported.

    That is a ``NotImplementedError`` whose message starts with
    ``"<op> is not supported on the <backend> backend"`` for an ``<op>`` listed in
    one of the backend's ``UNSUPPORTED`` tables.
    """
    if not isinstance(error, NotImplementedError):
        return False
    text = str(error)
    backend = _backends.backend()
    for module_name in _backends.CONTRACT_MODULES:
        table = _contract.declared_unsupported(_backends.backend_module(module_name))
        if any(
            text.startswith(f"{name} is not supported on the {backend} backend") for name in table
        ):
            return True
    return False


def declared_ops_only(test: Any) -> Any:
    """Decorator: a test that hits a declared-unsupported op is skipped with the reason.

    Any other ``NotImplementedError`` (a backend missing an op it never declared)
    fails the test.
    """

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import pytest

        try:
            return test(*args, **kwargs)
        except NotImplementedError as error:
            if not is_declared_unsupported(error):
                raise
            pytest.skip(f"the {_backends.backend()} backend declares: {error}")

    return wrapper
