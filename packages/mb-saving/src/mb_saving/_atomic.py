"""Atomic file writes: write a temporary file next to the target, then rename it.

A crash (or a kill) in the middle of a save leaves the previous file intact:
the target is only ever replaced by a complete file, in one ``os.replace``.
A leftover ``.<name>.*.tmp`` file may remain after a crash; it is never read.
"""

import contextlib
import os
import shutil
import tempfile


def check_overwrite(path, overwrite):
    if not overwrite and os.path.exists(path):
        raise FileExistsError(
            f"'{path}' already exists and overwrite=False. Pass overwrite=True to replace it, "
            "or choose another path."
        )


def _fsync_folder(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_file(path):
    """Yields a temporary path in the target's folder; renames it onto `path` on success.

    Example:

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> target = os.path.join(folder, "notes.txt")
    >>> with atomic_file(target) as tmp:
    ...     with open(tmp, "w") as f:
    ...         _ = f.write("done")
    >>> with open(target) as f:
    ...     f.read()
    'done'
    """
    path = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _fsync_folder(folder)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


@contextlib.contextmanager
def atomic_folder(path):
    """Like `atomic_file` for a folder (``zipped=False``): the new folder is written
    aside, then swapped in with two renames."""
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    old = None
    try:
        yield tmp
        if os.path.exists(path):
            old = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(path)}.", suffix=".old")
            os.rmdir(old)
            os.replace(path, old)
        try:
            os.replace(tmp, path)
        except BaseException:
            if old is not None:
                os.replace(old, path)
                old = None
            raise
        _fsync_folder(parent)
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and os.path.exists(old):
            shutil.rmtree(old, ignore_errors=True)
