"""Atomic writes for saving (mb_train's `_atomic_files`), and the overwrite check.

A save writes ``.<name>.mb-tmp-<host>-<pid>-<random>`` next to its target
and renames it into place: a crash mid-save leaves the previous file intact,
the file gets the mode ``open(path, "w")`` would give (the replaced file's
mode on overwrite), an exception removes the temporary at once, and the next
save or load in that folder removes the temporaries of killed saves.
"""

import os

from mb_train._atomic_files import atomic_file as atomic_file
from mb_train._atomic_files import atomic_folder as atomic_folder
from mb_train._atomic_files import place as place
from mb_train._atomic_files import remove_stale as remove_stale
from mb_train._atomic_files import temporary_name as temporary_name


def check_overwrite(path, overwrite):
    if not overwrite and os.path.exists(path):
        raise FileExistsError(
            f"'{path}' already exists and overwrite=False. Pass overwrite=True to replace it, "
            "or choose another path."
        )


def remove_stale_near(path):
    """`remove_stale` on the folder of `path` (a file being loaded or saved)."""
    return remove_stale(os.path.dirname(os.path.abspath(os.fspath(path))))
