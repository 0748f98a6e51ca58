"""Flattening values "up to" a structure of KerasTensors, lists and tuples alike."""

import optree

from mb_graph._keras_tensor import KerasTensor
from mb_graph.tree import NAMESPACE


class StructureMismatch(ValueError):
    """`values` is not nested like the structure."""


def _flatten_like(structure, values, flat):
    if isinstance(structure, KerasTensor):
        flat.append(values)
    elif isinstance(structure, (list, tuple)):
        if not isinstance(values, (list, tuple)) or len(values) != len(structure):
            raise StructureMismatch
        for sub_structure, sub_values in zip(structure, values, strict=True):
            _flatten_like(sub_structure, sub_values, flat)
    elif isinstance(structure, dict):
        if not isinstance(values, dict) or set(values) != set(structure):
            raise StructureMismatch
        # The key order of optree's flattening (sorted, or insertion for OrderedDict).
        paths = optree.tree_paths(
            structure, is_leaf=lambda x: x is not structure, none_is_leaf=True, namespace=NAMESPACE
        )
        for (key,) in paths:
            _flatten_like(structure[key], values[key], flat)
    else:
        raise StructureMismatch


def flatten_like(structure, treespec, values):
    """Flattens `values` as deep as `structure` (KerasTensors at the leaves) nests.

    Values at the leaves stay whole even when they are lists themselves. The
    exact treespec is tried first; then lists and tuples are taken alike.

    Raises:
        StructureMismatch: when `values` is nested differently.
    """
    try:
        return treespec.flatten_up_to(values)
    except (ValueError, TypeError):
        pass
    flat = []
    _flatten_like(structure, values, flat)
    return flat
