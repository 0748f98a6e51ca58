"""Minimal nested-structure helpers (lists, tuples, dicts; None is a leaf).

The backend may import only mb_ops of mb, so control flow that takes nested
values (``scan``, ``while_loop``, ``compute_output_spec``) uses these.
"""


def flatten(x):
    """The leaves of ``x`` in order (dicts by sorted key, as Keras's tree)."""
    out = []
    _flatten_into(x, out)
    return out


def _flatten_into(x, out):
    if isinstance(x, list | tuple):
        for item in x:
            _flatten_into(item, out)
    elif isinstance(x, dict):
        for key in sorted(x):
            _flatten_into(x[key], out)
    else:
        out.append(x)


def is_nested(x):
    return isinstance(x, list | tuple | dict)


def pack_sequence_as(structure, flat):
    """Rebuild ``structure`` with the leaves taken in order from ``flat``."""
    it = iter(flat)
    return _pack(structure, it)


def _pack(structure, it):
    if isinstance(structure, list):
        return [_pack(s, it) for s in structure]
    if isinstance(structure, tuple):
        values = [_pack(s, it) for s in structure]
        if hasattr(structure, "_fields"):
            return type(structure)(*values)
        return tuple(values)
    if isinstance(structure, dict):
        packed = {key: _pack(structure[key], it) for key in sorted(structure)}
        return type(structure)((key, packed[key]) for key in structure)
    return next(it)


def map_structure(fn, *structures):
    """Apply ``fn`` leafwise over structures of the same shape."""
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in zip(*flats, strict=True)])
