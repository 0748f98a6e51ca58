"""Safe extraction of tar and zip archives.

No member is written outside the target folder: names that climb out (``../x``,
absolute paths), links that point out, and anything that is not a file, a folder
or a link (devices, fifos) are skipped with a warning naming them, as Keras does.
Extraction goes to a temporary sibling folder that is renamed into place at the
end, so an interrupted extraction never leaves a half-filled target behind.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import uuid
import warnings
import zipfile
from collections.abc import Iterable, Iterator

_FORMATS = ("tar", "zip")


def _inside(base: str, path: str) -> bool:
    try:
        return os.path.commonpath([base, path]) == base
    except ValueError:  # different drives
        return False


def _resolved_member(base: str, name: str) -> str | None:
    """Where ``name`` lands under ``base`` (links already on disk followed), or None."""
    path = os.path.realpath(os.path.join(base, name))
    return path if _inside(base, path) else None


def _tar_member_is_safe(base: str, info: tarfile.TarInfo) -> bool:
    destination = _resolved_member(base, info.name)
    if destination is None:
        return False
    if info.isfile() or info.isdir():
        return True
    if info.issym():
        # A symbolic link resolves from the folder it sits in.
        target = os.path.realpath(os.path.join(os.path.dirname(destination), info.linkname))
        return _inside(base, target)
    if info.islnk():
        # A hard link names another member, relative to the archive's root.
        return _resolved_member(base, info.linkname) is not None
    return False  # devices, fifos


def _skip(name: str, archive: str) -> None:
    warnings.warn(
        f"Skipping {name!r} while extracting {archive}: it would be written outside the "
        "target folder or is not a regular file, folder or link.",
        UserWarning,
        stacklevel=4,
    )


def _safe_tar_members(tar: tarfile.TarFile, base: str, archive: str) -> Iterator[tarfile.TarInfo]:
    # A generator: each member is checked just before it is written, so links
    # extracted earlier are followed when later names are resolved.
    for info in tar:
        if _tar_member_is_safe(base, info):
            yield info
        else:
            _skip(info.name, archive)


def _safe_zip_members(
    members: Iterable[zipfile.ZipInfo], base: str, archive: str
) -> Iterator[zipfile.ZipInfo]:
    for info in members:
        if _resolved_member(base, info.filename) is not None:
            yield info
        else:
            _skip(info.filename, archive)


def _extract_into(file_path: str, kind: str, base: str) -> None:
    if kind == "zip":
        with zipfile.ZipFile(file_path) as archive:
            archive.extractall(base, members=_safe_zip_members(archive.infolist(), base, file_path))
        return
    with tarfile.open(file_path) as archive:
        kwargs = {}
        if hasattr(tarfile, "data_filter"):
            # Python's own guard on top of ours (3.11.4+): no absolute links, no
            # special files, no set-uid bits.
            kwargs["filter"] = "data"
        archive.extractall(base, members=_safe_tar_members(archive, base, file_path), **kwargs)


def _archive_kind(file_path: str, archive_format) -> str | None:
    if archive_format is None:
        return None
    if archive_format == "auto":
        kinds = list(_FORMATS)
    elif isinstance(archive_format, str):
        kinds = [archive_format]
    else:
        kinds = list(archive_format)
    for kind in kinds:
        if kind not in _FORMATS:
            raise ValueError(
                f"Unknown archive_format {kind!r}. Expected 'auto', 'tar', 'zip', a list of "
                "them, or None."
            )
        if kind == "tar" and tarfile.is_tarfile(file_path):
            return "tar"
        if kind == "zip" and zipfile.is_zipfile(file_path):
            return "zip"
    return None


def extract_archive(
    file_path: str | os.PathLike, path: str | os.PathLike = ".", archive_format="auto"
) -> bool:
    """Extracts a tar (``.tar``, ``.tar.gz``, ``.tar.bz2``, ``.tar.xz``) or zip archive.

    Args:
        file_path: the archive.
        path: the folder to extract into; it is replaced as a whole once the
            extraction succeeds.
        archive_format: ``"auto"`` (tar, then zip), ``"tar"``, ``"zip"``, a list of
            them, or None (extract nothing).

    Returns:
        True when the archive matched a format and was extracted, False otherwise.

    Example:

    >>> import os, pathlib, tempfile, zipfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> with zipfile.ZipFile(os.path.join(tmp.name, "a.zip"), "w") as z:
    ...     z.writestr("inner/hello.txt", "hi")
    >>> extract_archive(os.path.join(tmp.name, "a.zip"), os.path.join(tmp.name, "out"))
    True
    >>> pathlib.Path(tmp.name, "out", "inner", "hello.txt").read_text()
    'hi'
    >>> tmp.cleanup()
    """
    file_path = os.fspath(file_path)
    path = os.path.abspath(os.fspath(path))
    kind = _archive_kind(file_path, archive_format)
    if kind is None:
        return False
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    # A sibling folder made with the user's umask (mkdtemp's would be private).
    staging = os.path.join(parent, f".{os.path.basename(path)}.{uuid.uuid4().hex[:12]}.partial")
    os.mkdir(staging)
    try:
        _extract_into(file_path, kind, os.path.realpath(staging))
        if os.path.lexists(path):
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
        os.replace(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return True
