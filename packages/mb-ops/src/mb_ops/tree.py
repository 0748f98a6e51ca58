"""Nested structures (``keras.tree``): ``mb_graph.tree``, re-exported for backends.

Backends import only ``mb_ops`` of mb; this is their one tree implementation
(lists, tuples, namedtuples, dicts in sorted key order, ``None`` a leaf).

Example:
    >>> from mb_ops import tree
    >>> tree.flatten({"b": [1, 2], "a": None})
    [None, 1, 2]
"""

from mb_graph.tree import MAP_TO_NONE as MAP_TO_NONE
from mb_graph.tree import assert_same_paths as assert_same_paths
from mb_graph.tree import assert_same_structure as assert_same_structure
from mb_graph.tree import flatten as flatten
from mb_graph.tree import flatten_with_path as flatten_with_path
from mb_graph.tree import is_nested as is_nested
from mb_graph.tree import lists_to_tuples as lists_to_tuples
from mb_graph.tree import map_shape_structure as map_shape_structure
from mb_graph.tree import map_structure as map_structure
from mb_graph.tree import map_structure_up_to as map_structure_up_to
from mb_graph.tree import pack_sequence_as as pack_sequence_as
from mb_graph.tree import register_tree_node_class as register_tree_node_class
from mb_graph.tree import traverse as traverse

__all__ = [
    "MAP_TO_NONE",
    "assert_same_paths",
    "assert_same_structure",
    "flatten",
    "flatten_with_path",
    "is_nested",
    "lists_to_tuples",
    "map_shape_structure",
    "map_structure",
    "map_structure_up_to",
    "pack_sequence_as",
    "register_tree_node_class",
    "traverse",
]
