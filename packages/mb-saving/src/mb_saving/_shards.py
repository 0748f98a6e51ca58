"""Sharded weights: ``<base>.weights.json`` plus ``<base>_00000.weights.h5``, ``_00001``, ...

Keras 3's layout: the JSON file holds ``{"metadata": {"total_size": bytes},
"weight_map": {"/layers/dense/vars": "m_00000.weights.h5", ...}}`` (a list of
files when a group spans shards); a new shard starts when the next array
would push the current one past ``max_shard_size`` (in GB). mb adds its
metadata under ``metadata.mb``. Shard names in the map are plain file names;
anything else (a path) is refused when reading.
"""

import contextlib
import json
import os
import shutil

import numpy as np

from mb_saving import _atomic
from mb_saving._archive import parse_json
from mb_saving._errors import FileFormatError
from mb_saving._h5_store import GroupWriter, H5Reader, H5Writer, open_h5

_MAX_INDEX_BYTES = 64 * 2**20


def base_name(path):
    name = os.path.basename(path)
    for suffix in (".weights.json", ".weights.h5", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


class _ShardedGroup(GroupWriter):
    def __init__(self, writer, path, name):
        self._writer = writer
        self._path = path
        self._name = name
        self.written = []
        writer._group_in_current(path, name)

    def __setitem__(self, key, value):
        array = np.asarray(value)
        group = self._writer._take(self._path, self._name, array.nbytes, key)
        GroupWriter(group)[key] = array
        self.written.append((str(key), tuple(array.shape), str(array.dtype)))
        self._writer._record(self._path)


class ShardedH5Writer:
    """Writes shards into a temporary folder; `commit` moves them into place."""

    def __init__(self, json_path, max_shard_size):
        if not isinstance(max_shard_size, (int, float)) or max_shard_size <= 0:
            raise ValueError(f"`max_shard_size` (GB) must be > 0. Received: {max_shard_size!r}.")
        self.json_path = os.path.abspath(json_path)
        self.folder = os.path.dirname(self.json_path)
        os.makedirs(self.folder, exist_ok=True)
        self.base = base_name(self.json_path)
        self.max_bytes = float(max_shard_size) * 1024**3
        _atomic.remove_stale(self.folder)
        self.staging = _atomic.temporary_name(self.json_path)
        os.mkdir(self.staging, 0o777)  # the umask applies, as to the files inside
        self.names, self.weight_map, self.total = [], {}, 0
        self.current, self.current_bytes = None, 0
        self._new_shard()

    def _new_shard(self):
        if self.current is not None:
            self.current.close()
        name = f"{self.base}_{len(self.names):05d}.weights.h5"
        self.names.append(name)
        self.current = H5Writer(os.path.join(self.staging, name))
        self.current_bytes = 0

    def _group_in_current(self, path, name):
        vars_path = f"{path}/vars" if path else "vars"
        if vars_path not in self.current.file:
            self.current.make(path, name)
        return self.current.file[vars_path]

    def make(self, path, name):
        return _ShardedGroup(self, path, name)

    def _take(self, path, name, nbytes, key):
        if nbytes > self.max_bytes:
            raise ValueError(
                f"The array '{path}/vars/{key}' takes {nbytes} bytes, more than max_shard_size "
                f"({self.max_bytes:.0f} bytes). Raise max_shard_size."
            )
        if self.current_bytes and self.current_bytes + nbytes > self.max_bytes:
            self._new_shard()
        self.current_bytes += nbytes
        self.total += nbytes
        return self._group_in_current(path, name)

    def _record(self, path):
        key = f"/{path}/vars" if path else "/vars"
        name = self.names[-1]
        existing = self.weight_map.get(key)
        if existing is None:
            self.weight_map[key] = name
        elif isinstance(existing, list):
            if name not in existing:
                existing.append(name)
        elif existing != name:
            self.weight_map[key] = [existing, name]

    def commit(self, mb_block):
        """Closes the shards and moves them, then the index, into place."""
        self.current.close()
        index = {
            "metadata": {"total_size": self.total, "mb": mb_block},
            "weight_map": self.weight_map,
        }
        with open(os.path.join(self.staging, "index.json"), "w") as f:
            json.dump(index, f, indent=4)
        for name in self.names:
            _atomic.place(os.path.join(self.staging, name), os.path.join(self.folder, name))
        _atomic.place(os.path.join(self.staging, "index.json"), self.json_path)
        os.rmdir(self.staging)

    def abort(self):
        with contextlib.suppress(Exception):
            self.current.close()
        shutil.rmtree(self.staging, ignore_errors=True)


def open_sharded(json_path, strict=True):
    """``(H5Reader over every shard, the index's mb metadata block)``; `strict` as
    for `H5Reader`."""
    label = f"'{json_path}'"
    try:
        size = os.path.getsize(json_path)
    except OSError as error:
        raise FileFormatError(f"{label}: cannot read the shard index: {error}.") from error
    if size > _MAX_INDEX_BYTES:
        raise FileFormatError(f"{label}: the shard index is {size} bytes; too large.")
    with open(json_path, "rb") as f:
        index = parse_json(f.read(), label, os.path.basename(json_path))
    weight_map = index.get("weight_map")
    if not isinstance(weight_map, dict):
        raise FileFormatError(f"{label}: the shard index has no 'weight_map' object.")
    names = []
    for key, value in weight_map.items():
        for name in value if isinstance(value, list) else [value]:
            if not isinstance(name, str) or os.path.basename(name) != name or name in ("", ".."):
                raise FileFormatError(
                    f"{label}: the weight map sends '{key}' to {name!r}, which is not a plain "
                    "file name next to the index; refused."
                )
            if name not in names:
                names.append(name)
    folder = os.path.dirname(os.path.abspath(json_path))
    first = f"{base_name(json_path)}_00000.weights.h5"
    if first not in names and os.path.exists(os.path.join(folder, first)):
        names.insert(0, first)
    files = []
    try:
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.exists(path):
                raise FileFormatError(f"{label}: the shard '{name}' it lists is missing.")
            files.append((f"'{path}'", open_h5(path, f"'{path}'")))
    except BaseException:
        for _, file in files:
            file.close()
        raise
    metadata = index.get("metadata")
    block = metadata.get("mb") if isinstance(metadata, dict) else None
    return H5Reader(files, label, strict), block if isinstance(block, dict) else {}
