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
    """``flat`` leaves arranged like ``structure``."""
    packed, used = _pack(structure, list(flat), 0)
    if used != len(flat):
        raise ValueError(
            f"Cannot pack {len(flat)} values into a structure with {used} leaves: {structure!r}."
        )
    return packed


def _pack(structure, flat, i):
    if isinstance(structure, dict):
        out = {}
        for key in sorted(structure):
            out[key], i = _pack(structure[key], flat, i)
        return type(structure)((k, out[k]) for k in structure), i
    if isinstance(structure, list | tuple):
        items = []
        for item in structure:
            packed, i = _pack(item, flat, i)
            items.append(packed)
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items), i
        return type(structure)(items), i
    if i >= len(flat):
        raise ValueError(f"Not enough values to pack into {structure!r}.")
    return flat[i], i + 1


def map_structure(fn, *structures):
    """``fn`` applied leaf-wise over structures of the same layout."""
    flats = [flatten(s) for s in structures]
    if any(len(f) != len(flats[0]) for f in flats):
        raise ValueError(
            "map_structure expects structures with the same number of leaves, received "
            f"{[len(f) for f in flats]}."
        )
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in zip(*flats, strict=False)])
