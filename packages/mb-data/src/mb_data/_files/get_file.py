"""`get_file`: download a file once into the Keras cache, check it, extract it."""

from __future__ import annotations

import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

from mb_data._files.archive import extract_archive
from mb_data._files.hashing import validate_file
from mb_data._files.progress import DownloadProgress

_CHUNK = 1 << 16
_TIMEOUT_SECONDS = 60


def default_cache_dir() -> str:
    """The folder `get_file` caches into when no ``cache_dir`` is given.

    ``$MB_HOME`` if set, else ``$KERAS_HOME`` if set, else ``~/.keras`` (Keras's
    folder, so datasets and weights a Keras user already downloaded are reused),
    else ``/tmp/.keras`` when the home folder is not writable.
    """
    for variable in ("MB_HOME", "KERAS_HOME"):
        value = os.environ.get(variable)
        if value:
            return os.path.expanduser(value)
    home = os.path.expanduser("~")
    if not os.access(home, os.W_OK):
        home = tempfile.gettempdir()
    return os.path.join(home, ".keras")


def _writable_dir(base: str, subdir: str) -> str:
    """``base/subdir``, created; under the temp folder's ``.keras`` if ``base`` is read-only."""
    for root in (base, os.path.join(tempfile.gettempdir(), ".keras")):
        folder = os.path.join(root, subdir)
        try:
            os.makedirs(folder, exist_ok=True)
        except PermissionError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    raise PermissionError(
        f"get_file cannot write to {os.path.join(base, subdir)} nor to the temporary "
        "folder. Pass cache_dir= a folder you can write to."
    )


def _file_name(fname: Any, origin: str) -> str:
    if fname:
        fname = os.fspath(fname)
        if os.sep in fname or (os.altsep and os.altsep in fname):
            raise ValueError(
                "get_file's fname is a file name, not a path. Received: "
                f"fname={fname!r}. To choose the folder, pass cache_dir= (and cache_subdir=)."
            )
        return fname
    name = os.path.basename(urllib.parse.urlsplit(origin).path)
    if not name:
        raise ValueError(
            f"get_file cannot read a file name from origin={origin!r}. Pass fname=, e.g. "
            'fname="data.zip".'
        )
    return name


def _targets(datadir: str, fname: str, given: bool, extract: bool) -> tuple[str, str | None]:
    """Where the download goes and where it is extracted, named as Keras names them."""
    if not extract:
        return os.path.join(datadir, fname), None
    if given and "." in fname:
        stem = fname[: fname.find(".")]
        return os.path.join(datadir, fname), os.path.join(datadir, f"{stem}_extracted")
    return os.path.join(datadir, f"{fname}_archive"), os.path.join(datadir, fname)


def _fetch_error(origin: str, target: str, exc: urllib.error.URLError) -> OSError:
    if isinstance(exc, urllib.error.HTTPError):
        return OSError(
            f"URL fetch failure on {origin}: HTTP {exc.code} {exc.reason}. Check the URL; "
            f"or place the file at {target} yourself and get_file will use it."
        )
    return ConnectionError(
        f"URL fetch failure on {origin}: {exc.reason}. mb could not reach the server: check "
        f"your network connection (are you offline?), or place the file at {target} "
        "yourself and get_file will use it."
    )


def _download(origin: str, target: str, file_hash: str | None, algorithm: str) -> None:
    """Downloads to a temporary sibling, checks it, then renames it into place."""
    print(f"Downloading data from {origin}", flush=True)
    partial = f"{target}.{uuid.uuid4().hex[:12]}.partial"
    try:
        try:
            response = urllib.request.urlopen(origin, timeout=_TIMEOUT_SECONDS)
        except urllib.error.URLError as exc:
            raise _fetch_error(origin, target, exc) from exc
        with response, open(partial, "wb") as out:
            length = response.headers.get("Content-Length")
            progress = DownloadProgress(int(length) if length and length.isdigit() else None)
            for chunk in iter(lambda: response.read(_CHUNK), b""):
                out.write(chunk)
                progress.update(len(chunk))
            progress.finish()
        if progress.total is not None and progress.done < progress.total:
            raise ConnectionError(
                f"The download of {origin} stopped after {progress.done} of "
                f"{progress.total} bytes. Try again."
            )
        if file_hash is not None and not validate_file(partial, file_hash, algorithm):
            raise ValueError(
                f"Incomplete or corrupted file detected: the {algorithm} hash of the file "
                f"downloaded from {origin} does not match the expected {file_hash}. The "
                "file was not kept; check the URL and the hash."
            )
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def get_file(
    fname=None,
    origin=None,
    untar=False,
    md5_hash=None,
    file_hash=None,
    cache_subdir="datasets",
    hash_algorithm="auto",
    extract=False,
    archive_format="auto",
    cache_dir=None,
    force_download=False,
):
    """Downloads a file from a URL unless it is already in the cache; returns its path.

    The file lands in ``cache_dir/cache_subdir/fname`` (default
    ``~/.keras/datasets/<name from the URL>``, see `default_cache_dir`), the same
    place Keras uses, so files already downloaded by Keras are reused. A file in
    the cache whose hash does not match ``file_hash`` is downloaded again; a
    download is written to a temporary file, checked, then renamed into place, so
    an interrupted or corrupted download never stays in the cache.

    Args:
        fname: the file's local name (a name, not a path). Default: the last part
            of ``origin``'s path. With ``extract=True``, a name without a dot is
            the extraction folder's name.
        origin: the URL.
        untar: deprecated spelling of ``extract=True`` with ``archive_format="tar"``.
        md5_hash: deprecated spelling of ``file_hash`` with ``hash_algorithm="md5"``.
        file_hash: the expected sha256 (64 hex digits) or md5 hash of the file.
        cache_subdir: the sub-folder of ``cache_dir`` (an absolute path is used as is).
        hash_algorithm: ``"auto"``, ``"sha256"`` or ``"md5"``.
        extract: extract the downloaded tar or zip archive and return the folder.
            Members that would land outside that folder, and links pointing out of
            it, are skipped with a warning.
        archive_format: ``"auto"`` (tar, then zip), ``"tar"``, ``"zip"`` or None.
        cache_dir: the cache folder. Default: ``$MB_HOME``, else ``$KERAS_HOME``,
            else ``~/.keras``.
        force_download: download even if the file is in the cache.

    Returns:
        The path of the downloaded file, or with ``extract=True`` of the folder it
        was extracted to.

    Raises:
        ConnectionError: the server cannot be reached (offline, wrong host).
        OSError: the server answers with an HTTP error.
        ValueError: the downloaded file's hash does not match ``file_hash``.

    Example:

    >>> import pathlib, tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> cached = pathlib.Path(tmp.name, "datasets", "notes.txt")
    >>> cached.parent.mkdir()
    >>> _ = cached.write_text("cached")
    >>> path = get_file("notes.txt", origin="https://example.com/notes.txt", cache_dir=tmp.name)
    >>> pathlib.Path(path).read_text()  # found in the cache: nothing is downloaded
    'cached'
    >>> tmp.cleanup()
    """
    if origin is None:
        raise ValueError(
            "get_file needs origin=, the URL of the file to download. Received: origin=None."
        )
    origin = str(origin)
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    if untar:
        extract, archive_format = True, "tar"
    base = os.path.expanduser(os.fspath(cache_dir)) if cache_dir else default_cache_dir()
    datadir = _writable_dir(base, os.fspath(cache_subdir))
    name = _file_name(fname, origin)
    download_target, extraction_dir = _targets(datadir, name, bool(fname), extract)

    downloaded = False
    if force_download or not os.path.exists(download_target):
        _download(origin, download_target, file_hash, hash_algorithm)
        downloaded = True
    elif file_hash is not None and not validate_file(download_target, file_hash, hash_algorithm):
        print(
            f"A local file was found at {download_target}, but its {hash_algorithm} hash does "
            f"not match the expected {file_hash} (incomplete or outdated): downloading it again.",
            flush=True,
        )
        _download(origin, download_target, file_hash, hash_algorithm)
        downloaded = True

    if extraction_dir is None:
        return download_target
    needs_extraction = downloaded or not os.path.isdir(extraction_dir)
    if needs_extraction and not extract_archive(download_target, extraction_dir, archive_format):
        raise ValueError(
            f"get_file could not extract {download_target}: it is not a "
            f"{'tar or zip' if archive_format == 'auto' else archive_format} archive. "
            "Pass extract=False to keep the file as it is, or the archive_format it has."
        )
    return extraction_dir
