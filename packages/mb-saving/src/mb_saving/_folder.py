"""A model saved with ``zipped=False``: a folder holding the members of a ``.keras`` file.

It is read with the same checks as the zip (`_archive.Archive`): the two
required members, sizes within the same limits, JSON that parses.
"""

import io
import os

from mb_saving import _archive
from mb_saving._errors import FileFormatError


class Folder:
    """An opened model folder, with `_archive.Archive`'s reading methods."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self.label = f"'{self.path}'"
        for required in (_archive.CONFIG, _archive.WEIGHTS):
            if not os.path.isfile(os.path.join(self.path, required)):
                raise FileFormatError(
                    f"{self.label} is a folder without '{required}', so it is not a model saved "
                    "with zipped=False."
                )

    @property
    def members(self):
        """Every file of the folder, as zip-style member names."""
        names = []
        for root, _, files in os.walk(self.path):
            for name in files:
                names.append(
                    os.path.relpath(os.path.join(root, name), self.path).replace(os.sep, "/")
                )
        return sorted(names)

    def read(self, name, limit=None):  # files are not compressed: nothing expands
        full = os.path.join(self.path, *name.split("/"))
        limit = _archive._LIMITS.get(name, _archive.MAX_WEIGHTS_BYTES)
        size = os.path.getsize(full)
        if size > limit:
            raise FileFormatError(
                f"{self.label}: '{name}' is {size} bytes, more than the {limit} allowed."
            )
        with open(full, "rb") as f:
            return f.read()

    def config(self):
        return _archive.parse_json(self.read(_archive.CONFIG), self.label, _archive.CONFIG)

    def metadata(self):
        if not os.path.isfile(os.path.join(self.path, _archive.METADATA)):
            return {}
        return _archive.parse_json(self.read(_archive.METADATA), self.label, _archive.METADATA)

    def weights_file(self, limit=None):
        return io.BytesIO(self.read(_archive.WEIGHTS))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
