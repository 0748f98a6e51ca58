"""Settings from mb.json and the setters, as Keras's keras.config exposes them."""

from __future__ import annotations

import json

import pytest

from mb_ops import _config, config


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
