"""Settings from mb.json and the setters, as Keras's keras.config exposes them."""

from __future__ import annotations

import json

import pytest

from mb_ops import _config, config, testing


@pytest.fixture
def home(monkeypatch, tmp_path):
    monkeypatch.setenv("MB_HOME", str(tmp_path))
    original = _config._settings
    yield tmp_path
    _config._settings = original


def _reload():
    _config._settings = _config._Settings()


def test_defaults_match_keras(home):
    _reload()
    assert config.floatx() == "float32"
    assert config.epsilon() == pytest.approx(1e-7)
    assert config.image_data_format() == "channels_last"


def test_mb_json_sets_floatx_epsilon_and_layout(home):
    (home / "mb.json").write_text(
        json.dumps({"floatx": "float64", "epsilon": 1e-5, "image_data_format": "channels_first"})
    )
    _reload()
    assert config.floatx() == "float64"
    assert config.epsilon() == pytest.approx(1e-5)
    assert config.image_data_format() == "channels_first"


def test_invalid_json_names_the_file(home):
    (home / "mb.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"mb\.json is not valid JSON"):
        _reload()


def test_bad_values_are_rejected_with_the_choices(home):
    _reload()
    with pytest.raises(ValueError, match="float16, bfloat16, float32, float64"):
        config.set_floatx("float8")
    with pytest.raises(ValueError, match="channels_last"):
        config.set_image_data_format("NHWC")
    with pytest.raises(ValueError, match="positive"):
        config.set_epsilon(-1.0)


def test_setters_change_the_values(home):
    _reload()
    config.set_floatx("bfloat16")
    config.set_epsilon(1e-3)
    config.set_image_data_format("channels_first")
    assert (config.floatx(), config.epsilon(), config.image_data_format()) == (
        "bfloat16",
        1e-3,
        "channels_first",
    )


# keras.config's other switches, read from Keras 3 itself in a subprocess.
_KERAS_SWITCHES = """
import json, keras
c = keras.config
out = {"defaults": [c.max_epochs(), c.max_steps_per_epoch(), c.is_flash_attention_enabled(),
                    c.is_nnx_enabled(), c.is_traceback_filtering_enabled()]}
c.set_max_epochs(3); c.set_max_steps_per_epoch(5)
c.disable_flash_attention(); c.disable_traceback_filtering()
out["set"] = [c.max_epochs(), c.max_steps_per_epoch(), c.is_flash_attention_enabled(),
              c.is_traceback_filtering_enabled()]
c.set_max_epochs(None); c.set_max_steps_per_epoch(None)
c.enable_flash_attention(); c.enable_traceback_filtering()
out["reset"] = [c.max_epochs(), c.max_steps_per_epoch(), c.is_flash_attention_enabled(),
                c.is_traceback_filtering_enabled()]
print(json.dumps(out))
"""


def _mb_switches():
    out = {
        "defaults": [
            config.max_epochs(),
            config.max_steps_per_epoch(),
            config.is_flash_attention_enabled(),
            config.is_nnx_enabled(),
            config.is_traceback_filtering_enabled(),
        ]
    }
    config.set_max_epochs(3)
    config.set_max_steps_per_epoch(5)
    config.disable_flash_attention()
    config.disable_traceback_filtering()
    out["set"] = [
        config.max_epochs(),
        config.max_steps_per_epoch(),
        config.is_flash_attention_enabled(),
        config.is_traceback_filtering_enabled(),
    ]
    config.set_max_epochs(None)
    config.set_max_steps_per_epoch(None)
    config.enable_flash_attention()
    config.enable_traceback_filtering()
    out["reset"] = [
        config.max_epochs(),
        config.max_steps_per_epoch(),
        config.is_flash_attention_enabled(),
        config.is_traceback_filtering_enabled(),
    ]
    return out


def test_switches_read_and_set_as_keras_config(home, monkeypatch):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    for var in ("KERAS_MAX_EPOCHS", "KERAS_MAX_STEPS_PER_EPOCH", "KERAS_NNX_ENABLED"):
        monkeypatch.delenv(var, raising=False)
    for var in ("MB_MAX_EPOCHS", "MB_MAX_STEPS_PER_EPOCH"):
        monkeypatch.delenv(var, raising=False)
    keras_side = testing.keras_json(
        _KERAS_SWITCHES, backend="numpy", KERAS_HOME=str(home / "keras")
    )
    _reload()
    assert _mb_switches() == keras_side


@pytest.mark.parametrize("prefix", ["MB", "KERAS"])
def test_caps_come_from_the_environment(home, monkeypatch, prefix):
    for var in ("MB_MAX_EPOCHS", "KERAS_MAX_EPOCHS", "MB_MAX_STEPS_PER_EPOCH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("KERAS_MAX_STEPS_PER_EPOCH", raising=False)
    monkeypatch.setenv(f"{prefix}_MAX_EPOCHS", "2")
    monkeypatch.setenv(f"{prefix}_MAX_STEPS_PER_EPOCH", "7")
    _reload()
    assert (config.max_epochs(), config.max_steps_per_epoch()) == (2, 7)


def test_bad_caps_are_rejected(home, monkeypatch):
    _reload()
    with pytest.raises(ValueError, match=r"max_epochs must be a positive integer.*received 0"):
        config.set_max_epochs(0)
    with pytest.raises(ValueError, match=r"max_steps_per_epoch .*received '3'"):
        config.set_max_steps_per_epoch("3")
    monkeypatch.setenv("MB_MAX_EPOCHS", "many")
    with pytest.raises(ValueError, match=r"MB_MAX_EPOCHS must be a positive integer.*'many'"):
        _reload()
