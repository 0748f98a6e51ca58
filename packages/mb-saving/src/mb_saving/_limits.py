"""How many bytes a compressed member of a ``.keras`` file may expand to.

A zip bomb is a small member that expands to far more than its file
declares. A model whose weights are mostly zeros (a fresh zero-initialized
kernel, zero optimizer slots) compresses a thousandfold too, so the guard is
not a compression ratio: it is an absolute size tied to what is declared. The
weights member may expand to at most eight times the bytes of the variables
the model built from the config (and the file's manifest, when mb wrote it)
declares, plus room for HDF5's own structures; never past a ceiling (64 GiB
by default, `set_max_expanded_bytes`). Decompression streams and stops at
that limit, so a bomb costs no memory beyond it.
"""

import numpy as np

from mb_saving import _state_walk

_CEILING = [64 * 2**30]
# What nothing declares (inspecting a file without mb's manifest): Keras's read limit.
UNDECLARED = 4 * 2**30
# HDF5 spends ~750 bytes of headers and links on each variable and group.
_PER_VARIABLE = 4096
_BASE = 16 * 2**20
_FACTOR = 8


def set_max_expanded_bytes(max_bytes):
    """Sets the most bytes a compressed member of a ``.keras`` file may expand to.

    The weights member is further limited by what its model declares (see the
    module); this ceiling caps everything (default 64 GiB).

    Example:

    >>> previous = get_max_expanded_bytes()
    >>> set_max_expanded_bytes(2**30)
    >>> get_max_expanded_bytes()
    1073741824
    >>> set_max_expanded_bytes(previous)
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
        raise ValueError(f"max_bytes must be a positive int (bytes). Received: {max_bytes!r}.")
    _CEILING[0] = max_bytes


def get_max_expanded_bytes():
    """The ceiling set by `set_max_expanded_bytes` (default 64 GiB)."""
    return _CEILING[0]


def _itemsize(dtype):
    try:
        return np.dtype("bfloat16" if dtype == "bfloat16" else dtype).itemsize
    except TypeError:
        return 8


def declared_size(manifest):
    """``(bytes, variable count)`` of the variables a manifest lists (malformed
    entries count as nothing)."""
    total, count = 0, 0
    for entry in manifest or []:
        variables = entry.get("variables") if isinstance(entry, dict) else None
        for variable in variables if isinstance(variables, list) else []:
            shape = variable.get("shape") if isinstance(variable, dict) else None
            if not isinstance(shape, list) or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape
            ):
                continue
            total += int(np.prod(shape, dtype=object)) * _itemsize(str(variable.get("dtype")))
            count += 1
    return total, count


class WeightsLimit:
    """The expansion limit of a weights member, and why (for the error message)."""

    def __init__(self, manifests):
        sizes = [declared_size(m) for m in manifests if m is not None]
        self.declared = max((b for b, _ in sizes), default=None)
        self.count = max((c for _, c in sizes), default=0)
        ceiling = get_max_expanded_bytes()
        if self.declared is None:
            self.bytes = min(ceiling, UNDECLARED)
        else:
            tied = _FACTOR * self.declared + _PER_VARIABLE * self.count + _BASE
            self.bytes = min(ceiling, tied)

    def reason(self):
        if self.declared is None:
            return "allowed when no manifest declares the variables' sizes"
        return (
            f"allowed for {self.count} variable(s) of {self.declared} bytes in all, as the "
            f"model and its manifest declare (at most {get_max_expanded_bytes()} bytes, "
            "mb_saving.set_max_expanded_bytes)"
        )


def for_model(model, metadata_manifest=None, skip=()):
    """The `WeightsLimit` for loading into `model` (its variables and the file's manifest)."""
    return WeightsLimit([_state_walk.manifest(model, skip), metadata_manifest])
