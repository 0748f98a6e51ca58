"""Random mutations of a valid ``.keras`` file, for the loader's fuzz test.

Three levels: bytes of the whole file (flips, truncation, repeated chunks),
bytes of one member re-zipped with a valid CRC (so the damage reaches the
JSON and HDF5 readers), and the config's JSON tree (a value replaced by
another type, a key dropped, a class name swapped). Every mutant is
reproducible from ``(seed, index)``. Importable as ``mb_saving_fuzz``.
"""

import copy
import io
import json
import random
import zipfile

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
