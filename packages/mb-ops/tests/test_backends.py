"""Backend discovery and selection: entry points, precedence, and the errors users meet."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

from mb_ops import _backends, _config
from mb_ops.backends import BackendDescriptor, BackendNotInstalledError

ENGINES = ("jax", "torch", "tensorflow", "openvino")


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No backend asked for by the environment, and an empty MB_HOME."""
    monkeypatch.delenv("MB_BACKEND", raising=False)
    monkeypatch.delenv("KERAS_BACKEND", raising=False)
    monkeypatch.setenv("MB_HOME", str(tmp_path))
    monkeypatch.setattr(_config, "_settings", _config._Settings())
    return tmp_path


def _fake_backends(monkeypatch, descriptors):
    monkeypatch.setattr(_backends, "available_backends", lambda: dict(descriptors))


def _descriptor(name, engine=None):
    return BackendDescriptor(name, f"mb_backend_{name}", engine, engine, trainable=False)


def test_numpy_backend_is_registered_through_entry_points():
    names = {ep.name for ep in importlib.metadata.entry_points(group="mb.backends")}
    assert "numpy" in names
    assert _backends.available_backends()["numpy"].module == "mb_backend_numpy"


def test_default_is_jax_when_installed_else_numpy(clean_env):
    jax_ready = "jax" in _backends.available_backends() and importlib.util.find_spec("jax")
    assert _backends.resolve_backend_name() == ("jax" if jax_ready else "numpy")


def test_default_falls_back_to_numpy_without_jax(clean_env, monkeypatch):
    _fake_backends(monkeypatch, {"numpy": _descriptor("numpy")})
    assert _backends.resolve_backend_name() == "numpy"


def test_mb_backend_wins_over_keras_backend(clean_env, monkeypatch):
    monkeypatch.setenv("KERAS_BACKEND", "jax")
    monkeypatch.setenv("MB_BACKEND", "numpy")
    assert _backends.resolve_backend_name() == "numpy"


def test_keras_backend_is_honoured(clean_env, monkeypatch):
    _fake_backends(monkeypatch, {"numpy": _descriptor("numpy"), "toy": _descriptor("toy")})
    monkeypatch.setenv("KERAS_BACKEND", "toy")
    assert _backends.resolve_backend_name() == "toy"


def test_config_file_backend_is_used_when_no_variable_is_set(clean_env, monkeypatch):
    (clean_env / "mb.json").write_text(json.dumps({"backend": "toy"}))
    monkeypatch.setattr(_config, "_settings", _config._Settings())
    _fake_backends(monkeypatch, {"numpy": _descriptor("numpy"), "toy": _descriptor("toy")})
    assert _backends.resolve_backend_name() == "toy"


def test_unknown_backend_lists_the_known_ones(clean_env, monkeypatch):
    monkeypatch.setenv("MB_BACKEND", "caffe")
    with pytest.raises(ValueError) as err:
        _backends.resolve_backend_name()
    message = str(err.value)
    assert "'caffe'" in message and "MB_BACKEND" in message
    for name in ("numpy", "jax", "torch", "tensorflow", "openvino"):
        assert name in message


def test_missing_backend_package_says_what_to_install(clean_env, monkeypatch):
    _fake_backends(monkeypatch, {"numpy": _descriptor("numpy")})
    monkeypatch.setenv("MB_BACKEND", "torch")
    with pytest.raises(BackendNotInstalledError, match=r"pip install mb-backend-torch"):
        _backends.resolve_backend_name()


def test_missing_engine_says_what_to_install(clean_env, monkeypatch):
    broken = BackendDescriptor("toy", "mb_backend_toy", "no_such_engine_xyz", "toy-engine")
    _fake_backends(monkeypatch, {"numpy": _descriptor("numpy"), "toy": broken})
    monkeypatch.setenv("MB_BACKEND", "toy")
    with pytest.raises(BackendNotInstalledError, match=r"pip install toy-engine"):
        _backends.resolve_backend_name()


def _run(code: str, **env) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("MB_BACKEND", "KERAS_BACKEND")}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
    )


def test_backend_is_fixed_once_chosen(tmp_path):
    result = _run(
        """
        from mb_ops import config
        assert config.backend() == "numpy"
        config.set_backend("numpy")  # same name: fine
        try:
            config.set_backend("jax")
        except RuntimeError as exc:
            print("refused:", exc)
        """,
        MB_BACKEND="numpy",
        MB_HOME=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert "refused:" in result.stdout and "MB_BACKEND=jax" in result.stdout


def test_set_backend_before_first_use_chooses_it(tmp_path):
    result = _run(
        """
        from mb_ops import config
        config.set_backend("numpy")
        print(config.backend())
        """,
        MB_HOME=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "numpy"


def test_importing_graph_and_ops_and_listing_backends_loads_no_engine(tmp_path):
    result = _run(
        f"""
        import sys
        import mb_graph, mb_ops
        from mb_ops import backends
        backends.available_backends()
        loaded = [m for m in {ENGINES!r} if m in sys.modules]
        print(",".join(loaded))
        """,
        MB_HOME=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"engines imported: {result.stdout.strip()}"


def test_loading_the_numpy_backend_gives_its_contract_modules(tmp_path):
    result = _run(
        """
        from mb_ops import backends
        core = backends.backend_module("core")
        print(core.__name__, backends.backend_module("distribution").list_devices())
        """,
        MB_BACKEND="numpy",
        MB_HOME=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "mb_backend_numpy.core"
    assert "cpu:0" in result.stdout


def test_asking_for_a_module_outside_the_contract_is_an_error():
    with pytest.raises(ValueError, match="not a backend contract module"):
        _backends.backend_module("trainer")
