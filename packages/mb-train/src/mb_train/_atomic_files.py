"""Atomic file writes that honour the umask and leave nothing behind.

A file is written under a temporary name next to its target, then renamed
onto it with one ``os.replace``: a crash (or ``kill -9``) in the middle of a
save leaves the previous file intact. The temporary is created with the mode
an ordinary ``open(path, "w")`` would give (``0o666`` less the umask, which
the kernel applies), or with the existing file's mode when it replaces one,
so that a serving process running as another user can read what was saved.

Temporaries are named ``.<name>.mb-tmp-<host>-<pid>-<random>``: an exception
removes its own at once, and the next save or load in that folder removes
those of processes of this host that no longer run (a killed save). mb-saving
(``model.save``, ``save_weights``) and the callbacks that write files share
this module.
"""

import contextlib
import os
import re
import secrets
import shutil
import socket
import stat
import zlib

MARK = ".mb-tmp-"
_HOST = f"{zlib.crc32(socket.gethostname().encode()):08x}"
_PATTERN = re.compile(r"^\..*\.mb-tmp-(?P<host>[0-9a-f]{8})-(?P<pid>\d+)-[0-9a-f]+(\.old)?$")


def temporary_name(path):
    """A fresh ``.<name>.mb-tmp-<host>-<pid>-<random>`` path next to `path`."""
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    return os.path.join(folder, f".{name}{MARK}{_HOST}-{os.getpid()}-{secrets.token_hex(4)}")


def _running(pid):
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.remove(path)


def remove_stale(folder):
    """Removes the temporaries that crashed saves of this host left in `folder`.

    Only names mb makes are touched, and only those of processes that no longer
    run; a folder that cannot be listed or written is left as it is.

    Returns:
        The names removed.
    """
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return []
    removed = []
    for name in names:
        match = _PATTERN.match(name) if MARK in name else None
        if match and match["host"] == _HOST and not _running(int(match["pid"])):
            _remove(os.path.join(folder, name))
            removed.append(name)
    return removed


def _mode_of(path):
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def place(tmp, path):
    """Renames `tmp` onto `path`, first giving it the mode of the file it replaces."""
    mode = _mode_of(path)
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


def _fsync(path, folder=False):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        if not folder:
            raise
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_file(path):
    """Yields a temporary path in the target's folder; renames it onto `path` on success.

    The file ends with the mode ``open(path, "w")`` would give it (or, when it
    replaces a file, that file's mode). On an exception the temporary is removed.

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
    >>> os.listdir(folder)
    ['notes.txt']
    """
    path = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    remove_stale(folder)
    tmp = temporary_name(path)
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # umask applies
    try:
        yield tmp
        _fsync(tmp)
        place(tmp, path)
        _fsync(folder, folder=True)
    finally:
        if os.path.lexists(tmp):
            _remove(tmp)


@contextlib.contextmanager
def atomic_folder(path):
    """Like `atomic_file` for a folder: the new folder is written aside (mode of
    ``os.mkdir``, or the replaced folder's), then swapped in with two renames."""
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    remove_stale(parent)
    tmp = temporary_name(path)
    os.mkdir(tmp, 0o777)  # umask applies
    old = None
    try:
        yield tmp
        mode = _mode_of(path)
        if mode is not None:
            os.chmod(tmp, mode)
            old = f"{temporary_name(path)}.old"
            os.replace(path, old)
        try:
            os.replace(tmp, path)
        except BaseException:
            if old is not None:
                os.replace(old, path)
                old = None
            raise
        _fsync(parent, folder=True)
    finally:
        if os.path.lexists(tmp):
            _remove(tmp)
        if old is not None and os.path.lexists(old):
            _remove(old)
