"""Process-wide settings: floatx, epsilon, image data format, and the backend name.

Precedence for every key, highest first: the environment (``MB_BACKEND``, then
``KERAS_BACKEND`` for the backend), then ``$MB_HOME/mb.json`` (default
``~/.mb/mb.json``), then the built-in default.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

_FLOATX_CHOICES = ("float16", "bfloat16", "float32", "float64")
_IMAGE_DATA_FORMATS = ("channels_last", "channels_first")


def mb_home() -> Path:
    """The folder that holds ``mb.json``: ``$MB_HOME``, else ``~/.mb``."""
    return Path(os.environ.get("MB_HOME") or Path.home() / ".mb")


def _read_config_file() -> dict[str, Any]:
    path = mb_home() / "mb.json"
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"The mb configuration file {path} is not valid JSON ({exc}). "
            'Fix it or remove it; it holds keys such as {"backend": "jax", "floatx": "float32"}.'
        ) from None
    if not isinstance(data, dict):
        raise ValueError(
            f"The mb configuration file {path} must hold a JSON object, received "
            f'{type(data).__name__}. Example: {{"backend": "jax"}}.'
        )
    return data


class _Settings:
    def __init__(self) -> None:
        file = _read_config_file()
        self.file_backend: str | None = file.get("backend")
        self.floatx = _check_floatx(file.get("floatx", "float32"))
        self.epsilon = _check_epsilon(file.get("epsilon", 1e-7))
        self.image_data_format = _check_image_data_format(
            file.get("image_data_format", "channels_last")
        )


def _check_floatx(value: Any) -> str:
    if value not in _FLOATX_CHOICES:
        raise ValueError(f"Unknown floatx {value!r}. Expected one of {', '.join(_FLOATX_CHOICES)}.")
    return value


def _check_epsilon(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"epsilon must be a positive number, received {value!r}.")
    return float(value)


def _check_image_data_format(value: Any) -> str:
    if value not in _IMAGE_DATA_FORMATS:
        raise ValueError(
            f"Unknown image_data_format {value!r}. Expected 'channels_last' or 'channels_first'."
        )
    return value


_settings = _Settings()


def floatx() -> str:
    """The default float dtype, as a string (``"float32"`` unless configured)."""
    return _settings.floatx


def set_floatx(value: str) -> None:
    """Set the default float dtype: one of float16, bfloat16, float32, float64."""
    _settings.floatx = _check_floatx(value)


def epsilon() -> float:
    """The fuzz factor used in numeric expressions (``1e-7`` unless configured)."""
    return _settings.epsilon


def set_epsilon(value: float) -> None:
    """Set the fuzz factor used in numeric expressions."""
    _settings.epsilon = _check_epsilon(value)


def image_data_format() -> str:
    """``"channels_last"`` or ``"channels_first"``."""
    return _settings.image_data_format


def set_image_data_format(value: str) -> None:
    """Set the default image layout: ``"channels_last"`` or ``"channels_first"``."""
    _settings.image_data_format = _check_image_data_format(value)


def requested_backend() -> tuple[str | None, str]:
    """The backend name asked for, and where it was asked (for error messages).

    Returns ``(None, "default")`` when nothing asks for one.
    """
    for var in ("MB_BACKEND", "KERAS_BACKEND"):
        value = os.environ.get(var)
        if value:
            return value.strip().lower(), f"the environment variable {var}"
    if _settings.file_backend:
        return str(_settings.file_backend).strip().lower(), str(mb_home() / "mb.json")
    return None, "default"
