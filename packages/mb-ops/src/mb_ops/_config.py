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
    """The folder that holds ``mb.json``: ``$MB_HOME``, else ``~/.mb``.

    Returns:
        A ``pathlib.Path`` (the folder need not exist).

    Example:

    >>> import pathlib
    >>> from mb_ops import config
    >>> isinstance(config.mb_home(), pathlib.Path)
    True
    """
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
        # Debugging caps on fit (Keras's KERAS_MAX_EPOCHS / KERAS_MAX_STEPS_PER_EPOCH).
        self.max_epochs = _env_cap("MAX_EPOCHS")
        self.max_steps_per_epoch = _env_cap("MAX_STEPS_PER_EPOCH")
        # None: attention layers use the fused kernel where the engine can; False: never.
        self.flash_attention: bool | None = None
        self.traceback_filtering = True


def _env_cap(suffix: str) -> int | None:
    """``MB_<suffix>``, else ``KERAS_<suffix>``, as a positive int (None when unset)."""
    for var in (f"MB_{suffix}", f"KERAS_{suffix}"):
        value = os.environ.get(var)
        if value:
            try:
                return _check_cap(var, int(value))
            except ValueError:
                raise ValueError(
                    f"The environment variable {var} must be a positive integer, "
                    f"received {value!r}. Unset it to remove the limit."
                ) from None
    return None


def _check_cap(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            f"{name} must be a positive integer or None (no limit), received {value!r}."
        )
    return value


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
    """The default float dtype, as a string (``"float32"`` unless configured).

    Returns:
        ``"float16"``, ``"bfloat16"``, ``"float32"`` or ``"float64"``: the dtype of new
        float tensors and weights when none is given.

    Example:

    >>> from mb_ops import config
    >>> config.floatx()
    'float32'
    """
    return _settings.floatx


def set_floatx(value: str) -> None:
    """Set the default float dtype: one of float16, bfloat16, float32, float64.

    Args:
        value: the dtype name.

    Raises:
        ValueError: for any other value.

    Example:

    >>> from mb_ops import config
    >>> previous = config.floatx()
    >>> config.set_floatx("float64")
    >>> config.floatx()
    'float64'
    >>> config.set_floatx(previous)
    """
    _settings.floatx = _check_floatx(value)


def epsilon() -> float:
    """The fuzz factor used in numeric expressions (``1e-7`` unless configured).

    Returns:
        A float, added to denominators and clipping bounds (losses, normalizations).

    Example:

    >>> from mb_ops import config
    >>> config.epsilon()
    1e-07
    """
    return _settings.epsilon


def set_epsilon(value: float) -> None:
    """Set the fuzz factor used in numeric expressions.

    Args:
        value: a float.

    Example:

    >>> from mb_ops import config
    >>> previous = config.epsilon()
    >>> config.set_epsilon(1e-5)
    >>> config.epsilon()
    1e-05
    >>> config.set_epsilon(previous)
    """
    _settings.epsilon = _check_epsilon(value)


def image_data_format() -> str:
    """``"channels_last"`` or ``"channels_first"``.

    Returns:
        The default layout of image layers and ops when their ``data_format`` is None
        (``"channels_last"`` unless configured).

    Example:

    >>> from mb_ops import config
    >>> config.image_data_format()
    'channels_last'
    """
    return _settings.image_data_format


def set_image_data_format(data_format: str) -> None:
    """Set the default image layout: ``"channels_last"`` or ``"channels_first"``.

    Args:
        data_format: ``"channels_last"`` or ``"channels_first"``.

    Raises:
        ValueError: for any other value.

    Example:

    >>> from mb_ops import config
    >>> previous = config.image_data_format()
    >>> config.set_image_data_format("channels_first")
    >>> config.image_data_format()
    'channels_first'
    >>> config.set_image_data_format(previous)
    """
    _settings.image_data_format = _check_image_data_format(data_format)


def max_epochs() -> int | None:
    """The cap on the epochs of any ``fit`` call, or None (no cap).

    Set with `set_max_epochs` or the environment variable ``MB_MAX_EPOCHS`` (or
    ``KERAS_MAX_EPOCHS``): a debugging aid to run a script quickly unchanged.

    Returns:
        A positive int, or None.

    Example:

    >>> from mb_ops import config
    >>> config.max_epochs() is None  # unless MB_MAX_EPOCHS is set
    True
    """
    return _settings.max_epochs


def set_max_epochs(max_epochs: int | None) -> None:
    """Cap the number of epochs of every ``fit`` call (None removes the cap).

    ``fit(epochs=n)`` then runs ``min(n, max_epochs)`` epochs and warns that it does.

    Args:
        max_epochs: a positive int, or None.

    Example:

    >>> from mb_ops import config
    >>> previous = config.max_epochs()
    >>> config.set_max_epochs(2)
    >>> config.max_epochs()
    2
    >>> config.set_max_epochs(previous)
    """
    _settings.max_epochs = _check_cap("max_epochs", max_epochs)


def max_steps_per_epoch() -> int | None:
    """The cap on the steps of one epoch of ``fit``/``evaluate``/``predict``, or None.

    Set with `set_max_steps_per_epoch` or ``MB_MAX_STEPS_PER_EPOCH`` (or
    ``KERAS_MAX_STEPS_PER_EPOCH``).

    Returns:
        A positive int, or None.

    Example:

    >>> from mb_ops import config
    >>> config.max_steps_per_epoch() is None  # unless MB_MAX_STEPS_PER_EPOCH is set
    True
    """
    return _settings.max_steps_per_epoch


def set_max_steps_per_epoch(max_steps_per_epoch: int | None) -> None:
    """Cap the steps of every epoch of ``fit``/``evaluate``/``predict`` (None: no cap).

    Args:
        max_steps_per_epoch: a positive int, or None.

    Example:

    >>> from mb_ops import config
    >>> previous = config.max_steps_per_epoch()
    >>> config.set_max_steps_per_epoch(10)
    >>> config.max_steps_per_epoch()
    10
    >>> config.set_max_steps_per_epoch(previous)
    """
    _settings.max_steps_per_epoch = _check_cap("max_steps_per_epoch", max_steps_per_epoch)


def enable_flash_attention() -> None:
    """Let attention layers use the engine's fused (flash) kernel where it can run.

    This is the default: `is_flash_attention_enabled` is then None, "where possible".

    Example:

    >>> from mb_ops import config
    >>> config.enable_flash_attention()
    >>> config.is_flash_attention_enabled() is None
    True
    """
    _settings.flash_attention = None


def disable_flash_attention() -> None:
    """Attention layers built from now on never use the fused (flash) kernel.

    They compute the scores explicitly (``is_flash_attention_enabled()`` is False).

    Example:

    >>> from mb_ops import config
    >>> config.disable_flash_attention()
    >>> config.is_flash_attention_enabled()
    False
    >>> config.enable_flash_attention()  # back to the default
    """
    _settings.flash_attention = False


def is_flash_attention_enabled() -> bool | None:
    """False once `disable_flash_attention` ran; None (use it where possible) otherwise.

    As Keras: the value is what attention layers built with ``flash_attention=None``
    take as their own setting.

    Returns:
        None or False.

    Example:

    >>> from mb_ops import config
    >>> config.is_flash_attention_enabled() is None
    True
    """
    return _settings.flash_attention


def is_nnx_enabled() -> bool:
    """Whether Flax NNX integration is on: always False, mb has no NNX mode.

    (Keras turns it on with ``KERAS_NNX_ENABLED`` on the jax backend.)

    Returns:
        False.

    Example:

    >>> from mb_ops import config
    >>> config.is_nnx_enabled()
    False
    """
    return False


def enable_traceback_filtering() -> None:
    """Errors raised through mb calls show only the caller's frames (the default).

    Example:

    >>> from mb_ops import config
    >>> config.enable_traceback_filtering()
    >>> config.is_traceback_filtering_enabled()
    True
    """
    _settings.traceback_filtering = True


def disable_traceback_filtering() -> None:
    """Errors raised through mb calls keep mb's own frames in their tracebacks.

    Example:

    >>> from mb_ops import config
    >>> config.disable_traceback_filtering()
    >>> config.is_traceback_filtering_enabled()
    False
    >>> config.enable_traceback_filtering()  # back to the default
    """
    _settings.traceback_filtering = False


def is_traceback_filtering_enabled() -> bool:
    """Whether mb removes its own frames from the tracebacks of errors (default True).

    Returns:
        A bool.

    Example:

    >>> from mb_ops import config
    >>> config.is_traceback_filtering_enabled()
    True
    """
    return _settings.traceback_filtering


def requested_backend() -> tuple[str | None, str]:
    """The backend name asked for, and where it was asked (for error messages).

    Returns:
        ``(name, origin)``: the name from ``MB_BACKEND``, ``KERAS_BACKEND`` or
        ``mb.json``, and a phrase naming where it came from; ``(None, "default")`` when
        nothing asks for one.

    Example:

    >>> from mb_ops import backends, config
    >>> name, origin = backends.requested_backend()
    >>> name in (None, config.backend())
    True
    """
    for var in ("MB_BACKEND", "KERAS_BACKEND"):
        value = os.environ.get(var)
        if value:
            return value.strip().lower(), f"the environment variable {var}"
    if _settings.file_backend:
        return str(_settings.file_backend).strip().lower(), str(mb_home() / "mb.json")
    return None, "default"
