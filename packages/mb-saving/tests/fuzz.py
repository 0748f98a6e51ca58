"""Random mutations of a valid ``.keras`` file, for the loader's fuzz test.

Three levels: bytes of the whole file (flips, truncation, repeated chunks),
bytes of one member re-zipped with a valid CRC (so the damage reaches the
JSON and HDF5 readers), and the config's JSON tree (a value replaced by
another type, a key dropped, a class name swapped). Every mutant is
reproducible from ``(seed, index)``. `reaching_out` turns one dataset of a
weights file into an entry that points outside it (the HDF5 kinds the loader
must refuse unread). Importable as ``mb_saving_fuzz``.
"""

import copy
import io
import json
import random
import struct
import zipfile

import h5py
import numpy as np

_ODD_VALUES = [
    None,
    -1,
    0,
    1,
    2**40,
    1e308,
    float("nan"),
    "",
    "x" * 50,
    [],
    {},
    [[[]]],
    True,
    "relu",
]
_CLASS_NAMES = ["Dense", "Lambda", "Sequential", "Functional", "InputLayer", "__lambda__",
                "__numpy__", "function", "Concatenate", "LSTM", "NoSuchThing"]  # fmt: skip


def _members(data):
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(info.filename, archive.read(info)) for info in archive.infolist()]


def _zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members:
            archive.writestr(name, content)
    return buffer.getvalue()


def _flip(rng, data, count):
    data = bytearray(data)
    for _ in range(count):
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def _nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _nodes(item, (*path, i))


def _mutate_json(rng, config):
    config = copy.deepcopy(config)
    nodes = [p for p, _ in _nodes(config) if p]
    path = rng.choice(nodes)
    parent = config
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, dict):
        del parent[key]
    elif action == 1 and key == "class_name":
        parent[key] = rng.choice(_CLASS_NAMES)
    elif (
        action == 2 and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool)
    ):
        parent[key] = rng.choice([-parent[key], parent[key] * 1000, 0, -1])
    else:
        parent[key] = copy.deepcopy(rng.choice(_ODD_VALUES))
    return config


def mutant(data, seed, index):
    """The `index`-th mutant of the valid file `data` (bytes) for `seed`."""
    rng = random.Random(seed * 1_000_003 + index)
    kind = index % 4
    if kind == 0:
        choice = rng.randrange(3)
        if choice == 0:
            return _flip(rng, data, rng.randint(1, 8))
        if choice == 1:
            return data[: rng.randrange(len(data))]
        start = rng.randrange(len(data))
        return data[:start] + data[start : start + rng.randint(1, 64)] * 3 + data[start:]
    members = _members(data)
    if kind == 1:
        i = rng.randrange(len(members))
        name, content = members[i]
        members[i] = (name, _flip(rng, content, rng.randint(1, 16)))
        return _zip(members)
    if kind == 2:
        i = next(i for i, (name, _) in enumerate(members) if name == "config.json")
        config = json.loads(members[i][1])
        for _ in range(rng.randint(1, 3)):
            config = _mutate_json(rng, config)
        members[i] = ("config.json", json.dumps(config).encode())
        return _zip(members)
    i = next(i for i, (name, _) in enumerate(members) if name == "model.weights.h5")
    name, content = members[i]
    cut = rng.randrange(len(content))
    members[i] = (name, rng.choice([content[:cut], content[:cut] + content[cut + 512 :]]))
    return _zip(members)


REACHING_OUT = ("external storage", "external link", "virtual dataset", "soft link")


def reaching_out(weights, kind, target, dataset=None):
    """`weights` (HDF5 bytes) with `dataset` (default: the first) replaced by a `kind`
    entry aimed at `target` (a file for the first three kinds, which read dataset
    ``/data`` of an HDF5 target or the raw bytes of any file; an HDF5 path in the
    same file for a soft link)."""
    buffer = io.BytesIO(weights)
    with h5py.File(buffer, "r+") as f:
        names = []
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
        name = dataset or sorted(names)[0]
        value = np.asarray(f[name][()])
        del f[name]
        if kind == "external storage":
            size = max(value.nbytes, 1)
            f.create_dataset(name, value.shape, value.dtype, external=[(target, 0, size)])
        elif kind == "external link":
            f[name] = h5py.ExternalLink(target, "/data")
        elif kind == "virtual dataset":
            layout = h5py.VirtualLayout(value.shape, value.dtype)
            layout[...] = h5py.VirtualSource(target, "data", shape=value.shape)
            f.create_virtual_dataset(name, layout)
        elif kind == "soft link":
            if target not in f:
                f[target] = value
            f[name] = h5py.SoftLink(target)
        else:
            raise ValueError(f"unknown kind {kind!r}; one of {REACHING_OUT}")
    return buffer.getvalue()


def reaching_out_archive(data, kind, target, dataset=None):
    """The ``.keras`` file `data` (bytes) with its weights passed through `reaching_out`."""
    members = _members(data)
    return _zip(
        [
            (name, reaching_out(content, kind, target, dataset))
            if name == "model.weights.h5"
            else (name, content)
            for name, content in members
        ]
    )


def declare_size(data, member, size):
    """The zip `data` (bytes) with the expanded size its headers declare for `member`
    set to `size` (the bytes stay as they are): how a bomb's header lies."""
    data = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        offset = archive.getinfo(member).header_offset
    struct.pack_into("<I", data, offset + 22, size)  # local header
    start = data.find(b"PK\x01\x02")
    while start != -1:  # central directory records
        name_length = struct.unpack_from("<H", data, start + 28)[0]
        if data[start + 46 : start + 46 + name_length] == member.encode():
            struct.pack_into("<I", data, start + 24, size)
        start = data.find(b"PK\x01\x02", start + 4)
    return bytes(data)


def rezip(data, compression=zipfile.ZIP_DEFLATED, replace=None):
    """The zip `data` re-written with every member compressed (`replace`: name -> a
    function writing that member's new content into an open member file)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression, compresslevel=9) as archive:
        for name, content in _members(data):
            if replace and name in replace:
                with archive.open(name, "w", force_zip64=True) as member:
                    replace[name](member)
            else:
                archive.writestr(name, content)
    return buffer.getvalue()
