"""Running child interpreters for the tests: another backend, Keras 3, a process to kill.

Importable in the tests as ``mb_saving_helpers`` (conftest registers it).
"""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
KERAS_SIDE = os.path.join(HERE, "keras_side.py")


def python_env(**overrides):
    """The environment of a child interpreter: quiet TF, the given variables set or removed."""
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONWARNINGS": "ignore"}
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_python(args, timeout=900, **env):
    """Runs ``python *args`` and returns its stdout; fails the test with stderr's tail."""
    result = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=python_env(**env),
        cwd=HERE,
    )
    if result.returncode != 0:
        pytest.fail(f"`python {' '.join(args[:2])}` failed:\n{result.stderr[-6000:]}")
    return result.stdout


def run_keras(mode, folder):
    """Runs the Keras side (`keras_side.py`) on Keras's jax backend."""
    return run_python([KERAS_SIDE, mode, str(folder)], KERAS_BACKEND="jax", MB_BACKEND=None)
