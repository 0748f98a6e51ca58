"""Callback tests share the trainer tests' backend choice (jax) and built-ins."""

import importlib.util
import os

os.environ.setdefault("MB_BACKEND", "jax")

_path = os.path.join(os.path.dirname(__file__), "..", "trainer", "conftest.py")
_spec = importlib.util.spec_from_file_location("mb_train_trainer_conftest", _path)
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)

builtins = _module.builtins
