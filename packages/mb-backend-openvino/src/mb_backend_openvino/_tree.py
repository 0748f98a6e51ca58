"""The little nested-structure handling control flow needs (lists, tuples, dicts).

Backends may import only ``mb_ops`` of mb, so this does not use ``mb_graph.tree``.
None is a leaf, as in Keras; dicts flatten in sorted key order.
"""


def is_nested(x):
    return isinstance(x, list | tuple | dict)


def flatten(x):
    """The leaves of ``x`` in order."""
    out = []
    _flatten_into(x, out)
    return out


def _flatten_into(x, out):
    if isinstance(x, dict):
        for key in sorted(x):
            _flatten_into(x[key], out)
    elif isinstance(x, list | tuple):
        for item in x:
            _flatten_into(item, out)
    else:
        out.append(x)


def pack_sequence_as(structure, flat):
    """``flat`` (leaves in order) arranged like ``structure``."""
    leaves = iter(flat)
    out = _pack(structure, leaves)
    if next(leaves, _END) is not _END:
        raise ValueError("pack_sequence_as received more leaves than the structure holds.")
    return out


_END = object()


def _pack(structure, leaves):
    if isinstance(structure, dict):
        return {key: _pack(structure[key], leaves) for key in sorted(structure)}
    if isinstance(structure, list | tuple):
        items = [_pack(item, leaves) for item in structure]
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items)
        return type(structure)(items)
    return next(leaves)


def map_structure(fn, *structures):
    """``fn`` applied leaf by leaf over structures of the same shape."""
    flats = [flatten(s) for s in structures]
    if any(len(f) != len(flats[0]) for f in flats[1:]):
        raise ValueError("map_structure received structures with different numbers of leaves.")
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in zip(*flats, strict=True)])
