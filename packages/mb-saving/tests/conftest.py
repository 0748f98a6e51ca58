"""mb-saving tests run on jax unless MB_BACKEND says otherwise; Keras runs in subprocesses.

`zoo.py` (models built alike in Keras and mb), `builtins_zoo.py` (every built-in
object), `fuzz.py` (crafted files) and `helpers.py` (child interpreters) are
importable as ``mb_saving_zoo``, ``mb_saving_builtins_zoo``, ``mb_saving_fuzz``
and ``mb_saving_helpers``.
"""

import importlib.util
import os
import sys

os.environ.setdefault("MB_BACKEND", "jax")

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, filename):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, filename))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_load("mb_saving_zoo", "zoo.py")
_load("mb_saving_fuzz", "fuzz.py")
_load("mb_saving_builtins_zoo", "builtins_zoo.py")
helpers = _load("mb_saving_helpers", "helpers.py")


@pytest.fixture(scope="session")
def keras_files(tmp_path_factory):
    """A folder of ``.keras`` files Keras 3 wrote (one subprocess for the whole session)."""
    folder = tmp_path_factory.mktemp("keras_written")
    helpers.run_keras("write", folder)
    return folder
