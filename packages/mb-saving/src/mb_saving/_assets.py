"""Assets: files an object writes besides its variables (a lookup layer's vocabulary).

Keras 3's protocol: an object with ``save_assets(folder)`` writes files into
a folder of its own; in the ``.keras`` zip they are the members
``assets/<object path>/...``; loading extracts the object's members into a
fresh folder and calls ``load_assets(folder)``. Extraction only ever writes
inside that temporary folder (member names are checked by `_archive`) and
stops at a total size limit.
"""

import os
import tempfile

from mb_saving import _state_walk
from mb_saving._errors import FileFormatError

PREFIX = "assets/"
MAX_TOTAL_BYTES = 2**30


def _prefix(path):
    return f"{PREFIX}{path}/" if path else PREFIX


def collect(model, skip=()):
    """``{member name: bytes}`` of every asset the model's objects write."""
    members = {}
    for path, obj in _state_walk.walk(model, skip):
        if not callable(getattr(obj, "save_assets", None)):
            continue
        with tempfile.TemporaryDirectory() as folder:
            obj.save_assets(folder)
            for root, _, files in os.walk(folder):
                for name in sorted(files):
                    full = os.path.join(root, name)
                    relative = os.path.relpath(full, folder).replace(os.sep, "/")
                    with open(full, "rb") as f:
                        members[_prefix(path) + relative] = f.read()
    return members


def restore(model, read_member, member_names, label, skip=()):
    """Calls ``load_assets`` of each object with the files stored for its path.

    Args:
        model: the model, its variables loaded.
        read_member: ``fn(name) -> bytes`` reading one checked member.
        member_names: every member name of the file.
        label: the file, for errors.
    """
    names = [n for n in member_names if n.startswith(PREFIX) and not n.endswith("/")]
    total = 0
    for path, obj in _state_walk.walk(model, skip):
        if not callable(getattr(obj, "load_assets", None)):
            continue
        prefix = _prefix(path)
        mine = [n for n in names if n.startswith(prefix)]
        with tempfile.TemporaryDirectory() as folder:
            for name in mine:
                data = read_member(name)
                total += len(data)
                if total > MAX_TOTAL_BYTES:
                    raise FileFormatError(
                        f"{label}: the assets hold more than {MAX_TOTAL_BYTES} bytes; refused."
                    )
                target = os.path.join(folder, *name[len(prefix) :].split("/"))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(data)
            try:
                obj.load_assets(folder)
            except Exception as error:
                raise FileFormatError(
                    f"{label}: the assets of '{path or '/'}' ({_state_walk.describe(obj)}) could "
                    f"not be loaded: {type(error).__name__}: {error}."
                ) from error
