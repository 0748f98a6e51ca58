"""File hashes as `get_file` checks them: sha256, or md5 for old 32-digit hashes."""

from __future__ import annotations

import hashlib
import os
from typing import Any

_CHUNK = 1 << 16
_ALGORITHMS = ("auto", "sha256", "md5")


def _hasher(algorithm: str, file_hash: str | None = None) -> Any:
    if algorithm not in _ALGORITHMS:
        raise ValueError(
            f"Unknown hash_algorithm {algorithm!r}. Expected one of {', '.join(_ALGORITHMS)}."
        )
    if algorithm == "sha256" or (algorithm == "auto" and file_hash and len(file_hash) == 64):
        return hashlib.sha256()
    # "md5", or "auto" with a hash that is not 64 hex digits (Keras's rule).
    return hashlib.md5()


def hash_file(fpath: str | os.PathLike, algorithm: str = "sha256") -> str:
    """The hex digest of a file.

    Args:
        fpath: the file.
        algorithm: ``"sha256"`` (default) or ``"md5"`` (``"auto"`` means sha256).

    Example:

    >>> import pathlib, tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(tmp.name, "empty")
    >>> path.touch()
    >>> hash_file(path)[:16]
    'e3b0c44298fc1c14'
    >>> tmp.cleanup()
    """
    hasher = _hasher(algorithm, "0" * 64 if algorithm == "auto" else None)
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath: str | os.PathLike, file_hash: str, algorithm: str = "auto") -> bool:
    """Whether a file's hash is ``file_hash``.

    With ``algorithm="auto"`` a 64-digit hash is read as sha256 and any other as md5,
    as Keras does.
    """
    hasher = _hasher(algorithm, file_hash)
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash).lower()
