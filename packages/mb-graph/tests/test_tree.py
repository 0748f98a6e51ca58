"""mb_graph.tree follows keras.tree: expected values are the examples of Keras 3's docs."""

import collections

import pytest

from mb_graph import tree


def test_flatten_treats_none_as_a_leaf_and_sorts_dict_keys():
    assert tree.flatten([[1, 2, 3], [4, [5], [[6]]]]) == [1, 2, 3, 4, 5, 6]
    assert tree.flatten(None) == [None]
    assert tree.flatten(1) == [1]
    assert tree.flatten({100: "world!", 6: "Hello"}) == ["Hello", "world!"]
    assert tree.flatten([None, (None, {"b": None, "a": 1})]) == [None, None, 1, None]


def test_ordered_dict_keeps_insertion_order():
    ordered = collections.OrderedDict([("b", 1), ("a", 2)])
    assert tree.flatten(ordered) == [1, 2]
    assert tree.pack_sequence_as(ordered, [3, 4]) == collections.OrderedDict([("b", 3), ("a", 4)])


def test_is_nested():
    assert not tree.is_nested(42)
    assert not tree.is_nested(None)
    assert tree.is_nested({"foo": 42})
    assert tree.is_nested(())


def test_flatten_with_path():
    assert tree.flatten_with_path([{"foo": 42}]) == [((0, "foo"), 42)]


def test_map_structure_keeps_namedtuples_and_checks_layouts():
    foo = collections.namedtuple("Foo", ["a", "b"])
    assert tree.map_structure(lambda v: v * 2, foo(a=1, b=2)) == foo(a=2, b=4)
    assert tree.map_structure(lambda x, y: x * y, [[1], [2]], [[1], [2]]) == [[1], [4]]
    assert tree.map_structure(lambda v: 0, None) == 0
    assert tree.map_structure(lambda v: 0, [None, 1], none_is_leaf=False) == [None, 0]
    with pytest.raises(ValueError, match="same nested structure"):
        tree.map_structure(lambda x, y: x, [1, [2]], [1, 2])
    with pytest.raises(ValueError, match="same nested structure"):
        tree.map_structure(lambda x, y: x, [1, 2], (1, 2))


def test_map_structure_up_to():
    structure = [[1, 1], [2, 2]]
    assert tree.map_structure_up_to([None, None], len, structure) == [2, 2]
    assert tree.map_structure_up_to([None, [None, None]], str, structure) == ["[1, 1]", ["2", "2"]]


def test_assert_same_structure_and_paths():
    tree.assert_same_structure([(0, 1)], [(2, 3)])
    tree.assert_same_structure({"a": 1, "b": None}, {"b": 2, "a": 3})
    foo = collections.namedtuple("Foo", ["a", "b"])
    also_foo = collections.namedtuple("Foo", ["a", "b"])
    tree.assert_same_structure(foo(0, 1), foo(2, 3))
    with pytest.raises(ValueError, match="same nested structure"):
        tree.assert_same_structure(foo(0, 1), also_foo(2, 3))
    with pytest.raises(ValueError, match="same nested structure"):
        tree.assert_same_structure([0, 1], (0, 1))
    tree.assert_same_paths([0, 1], (2, 3))
    tree.assert_same_paths(foo(0, 1), also_foo(2, 3))
    with pytest.raises(ValueError, match="missing in `b`"):
        tree.assert_same_paths({"a": 1, "c": 2}, {"a": 1})


def test_pack_sequence_as():
    structure = {"key3": "", "key1": "", "key2": ""}
    packed = tree.pack_sequence_as(structure, ["value1", "value2", "value3"])
    assert packed == {"key3": "value3", "key1": "value1", "key2": "value2"}
    assert tree.pack_sequence_as((("a", "b"), ("c", "d", "e"), "f"), [1, 2, 3, 4, 5, 6]) == (
        (1, 2),
        (3, 4, 5),
        6,
    )
    assert tree.pack_sequence_as("a", [7]) == 7
    with pytest.raises(ValueError, match="3 leaves but `flat_sequence` has 2"):
        tree.pack_sequence_as([1, 2, 3], [1, 2])


def test_traverse_top_down_and_bottom_up_visit_orders():
    visited = []
    structure = [(1, 2), [3], {"a": 4}]
    assert tree.traverse(visited.append, structure, top_down=True) == structure
    assert visited == [structure, (1, 2), 1, 2, [3], 3, {"a": 4}, 4]
    visited = []
    assert tree.traverse(visited.append, structure, top_down=False) == structure
    assert visited == [1, 2, (1, 2), 3, [3], 4, {"a": 4}, structure]


def test_traverse_replaces_subtrees_and_map_to_none():
    result = tree.traverse(lambda x: tree.MAP_TO_NONE if x == [3] else None, [(1, 2), [3]])
    assert result == [(1, 2), None]


def test_lists_to_tuples_and_map_shape_structure():
    assert tree.lists_to_tuples([1, [2, {"a": [3]}]]) == (1, (2, {"a": (3,)}))
    shapes = {"a": (None, 3), "b": [(2,), (4, 5, 6)], "c": ()}
    assert tree.map_shape_structure(len, shapes) == {"a": 2, "b": [1, 3], "c": 0}


def test_registered_container_class_is_flattened():
    @tree.register_tree_node_class
    class Pair:
        def __init__(self, left, right):
            self.left, self.right = left, right

        def tree_flatten(self):
            return (self.left, self.right), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    assert tree.flatten([Pair(1, Pair(2, 3))]) == [1, 2, 3]
    doubled = tree.map_structure(lambda v: v * 2, Pair(1, 2))
    assert (doubled.left, doubled.right) == (2, 4)
