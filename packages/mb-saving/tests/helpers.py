"""Running child interpreters for the tests: another backend, Keras 3, a process to kill.

Importable in the tests as ``mb_saving_helpers`` (conftest registers it).
"""

import json
import os
import subprocess
import sys
import zipfile

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


def rewrite_archive(source, target, config=None, members=None, drop=()):
    """Copies a ``.keras`` zip, replacing its config (a dict) or any member's bytes."""
    with zipfile.ZipFile(source) as archive:
        contents = {info.filename: archive.read(info) for info in archive.infolist()}
    if config is not None:
        contents["config.json"] = json.dumps(config).encode()
    contents.update(members or {})
    with zipfile.ZipFile(target, "w") as archive:
        for name, data in contents.items():
            if name not in drop:
                archive.writestr(name, data)
    return target


def read_config(path):
    """The parsed ``config.json`` of a ``.keras`` file."""
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("config.json"))
