"""Nested structures: the `keras.tree` API over optree.

Lists, tuples (namedtuples included), dicts (``OrderedDict`` and
``defaultdict`` too) and classes registered with
:func:`register_tree_node_class` are containers; everything else, ``None``
included, is a leaf. Dicts are flattened in sorted key order, except
``OrderedDict``, which keeps its insertion order: the same convention as Keras 3.

Example:

>>> from mb_graph import tree
>>> tree.flatten({"b": [1, 2], "a": None})
[None, 1, 2]
>>> tree.map_structure(lambda v: v * 10, (1, [2, 3]))
(10, [20, 30])
"""

import optree

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

# Containers registered by mb (or by users through `register_tree_node_class`)
# live in their own optree namespace so they do not leak into other libraries.
NAMESPACE = "mb"


class MAP_TO_NONE:
    """Return this from a `traverse` function to replace a sub-tree by `None`.

    (Returning None itself means "leave this sub-tree alone".)

    Example:

    >>> traverse(lambda x: MAP_TO_NONE if x == (1, 2) else None, [(1, 2), 3])
    [None, 3]
    """


def register_tree_node_class(cls):
    """Registers a class as a container (a class decorator).

    The class must define ``tree_flatten(self) -> (children, aux)`` and the
    classmethod ``tree_unflatten(aux, children)``, as optree expects.

    Args:
        cls: the class.

    Returns:
        ``cls``, registered in mb's own optree namespace (other libraries do not see it).

    Example:

    >>> @register_tree_node_class
    ... class Pair:
    ...     def __init__(self, a, b):
    ...         self.a, self.b = a, b
    ...     def tree_flatten(self):
    ...         return (self.a, self.b), None
    ...     @classmethod
    ...     def tree_unflatten(cls, aux, children):
    ...         return cls(*children)
    >>> flatten([Pair(1, 2), 3])
    [1, 2, 3]
    >>> doubled = map_structure(lambda x: x * 2, Pair(1, 2))
    >>> doubled.a, doubled.b
    (2, 4)
    """
    return optree.register_pytree_node_class(cls, namespace=NAMESPACE)


def _is_leaf(x, none_is_leaf=True):
    return optree.tree_is_leaf(x, none_is_leaf=none_is_leaf, namespace=NAMESPACE)


def is_nested(structure):
    """Returns whether `structure` is a container (list, tuple, dict, ...).

    >>> is_nested(42), is_nested({"a": 42}), is_nested(None)
    (False, True, False)
    """
    return not _is_leaf(structure)


def flatten(structure):
    """Flattens a nested structure into a list of leaves.

    >>> flatten([[1, 2], {"b": 4, "a": 3}])
    [1, 2, 3, 4]
    >>> flatten(None)
    [None]
    """
    if not is_nested(structure):
        return [structure]
    return optree.tree_leaves(structure, none_is_leaf=True, namespace=NAMESPACE)


def flatten_with_path(structure):
    """Flattens `structure` into a list of `(path, leaf)` pairs.

    A path is a tuple of list indices and dict keys.

    >>> flatten_with_path([{"foo": 42}])
    [((0, 'foo'), 42)]
    """
    paths, leaves, _ = optree.tree_flatten_with_path(
        structure, none_is_leaf=True, namespace=NAMESPACE
    )
    return list(zip(paths, leaves, strict=True))


def map_structure(func, *structures, none_is_leaf=True):
    """Applies `func` leaf by leaf to structures of the same layout.

    Args:
        func: a callable taking one argument per structure.
        *structures: structures with the same nesting.
        none_is_leaf: when False, `None` entries are kept as they are and not
            passed to `func`.

    Returns:
        A structure of the same layout holding `func`'s results.

    Raises:
        ValueError: when the structures are not nested alike.

    >>> map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)])
    [11, (22, 33)]
    """
    if not structures:
        raise ValueError("map_structure needs at least one structure. Received none.")
    if not callable(func):
        raise TypeError(f"map_structure needs a callable `func`. Received: {func!r}")
    if len(structures) == 1:
        if not is_nested(structures[0]):
            if structures[0] is None and not none_is_leaf:
                return None
            return func(structures[0])
        return optree.tree_map(func, structures[0], none_is_leaf=none_is_leaf, namespace=NAMESPACE)

    def checked(*leaves):
        # optree would map a deeper structure onto a shallower one silently.
        if not all(_is_leaf(x, none_is_leaf) for x in leaves):
            raise ValueError(
                "The structures don't have the same nested structure: where the first "
                f"has a leaf, another has a container. Received leaves: {leaves!r}"
            )
        return func(*leaves)

    try:
        return optree.tree_map(checked, *structures, none_is_leaf=none_is_leaf, namespace=NAMESPACE)
    except ValueError as error:
        raise ValueError(f"The structures don't have the same nested structure. {error}") from None


def map_structure_up_to(shallow_structure, func, *structures):
    """Applies `func` to `structures`, descending only as far as `shallow_structure`.

    Deeper parts of `structures` are passed to `func` whole.

    >>> map_structure_up_to([None, None], len, [[1, 1], [2, 2, 2]])
    [2, 3]
    """
    if not structures:
        raise ValueError("map_structure_up_to needs at least one structure. Received none.")

    def checked(shallow, *subtrees):
        if not _is_leaf(shallow):
            raise ValueError(
                "The structures don't have the same nested structure: "
                "`shallow_structure` is deeper than the structures it maps."
            )
        return func(*subtrees)

    try:
        return optree.tree_map(
            checked, shallow_structure, *structures, none_is_leaf=True, namespace=NAMESPACE
        )
    except ValueError as error:
        raise ValueError(f"The structures don't have the same nested structure. {error}") from None


def assert_same_structure(a, b, check_types=None):
    """Raises ValueError unless `a` and `b` are nested alike (same container types).

    Args:
        a: a nested structure.
        b: a nested structure.
        check_types: accepted for compatibility with Keras and has no effect.

    Raises:
        ValueError: if a leaf of one stands where the other has a container.

    Example:

    >>> assert_same_structure([1, (2, 3)], [4, (5, 6)])  # no error
    >>> try:
    ...     assert_same_structure([1, 2], [1, [2]])
    ... except ValueError:
    ...     print("different")
    different
    """
    del check_types  # Deprecated in Keras; no effect there either.

    def check(x, y):
        if not (_is_leaf(x) and _is_leaf(y)):
            raise ValueError("leaf against container")

    try:
        optree.tree_map(check, a, b, none_is_leaf=True, namespace=NAMESPACE)
    except ValueError as error:
        raise ValueError(
            "The two structures don't have the same nested structure.\n"
            f"First structure: {a!r}\nSecond structure: {b!r}\nDetail: {error}"
        ) from None


def assert_same_paths(a, b):
    """Raises ValueError unless `a` and `b` have the same leaf paths.

    Container types are ignored: ``[1, 2]`` and ``(3, 4)`` have the same paths.

    Args:
        a: a nested structure.
        b: a nested structure.

    Raises:
        ValueError: naming the paths found in only one of them.

    Example:

    >>> assert_same_paths([1, 2], (3, 4))  # no error
    >>> try:
    ...     assert_same_paths({"x": 1}, {"y": 1})
    ... except ValueError:
    ...     print("different")
    different
    """
    a_paths = set(optree.tree_paths(a, none_is_leaf=True, namespace=NAMESPACE))
    b_paths = set(optree.tree_paths(b, none_is_leaf=True, namespace=NAMESPACE))
    if a_paths != b_paths:
        message = "`a` and `b` don't have the same paths."
        if a_paths - b_paths:
            message += f"\nPaths in `a` missing in `b`:\n{sorted(a_paths - b_paths, key=str)}"
        if b_paths - a_paths:
            message += f"\nPaths in `b` missing in `a`:\n{sorted(b_paths - a_paths, key=str)}"
        raise ValueError(message)


def pack_sequence_as(structure, flat_sequence):
    """Packs `flat_sequence` into the nesting of `structure`.

    >>> pack_sequence_as({"b": 0, "a": 0}, [1, 2])
    {'b': 2, 'a': 1}
    """
    treespec = optree.tree_structure(structure, none_is_leaf=True, namespace=NAMESPACE)
    try:
        flat_sequence = list(flat_sequence)
    except TypeError:
        raise TypeError(
            f"pack_sequence_as needs an iterable `flat_sequence`. Received: {flat_sequence!r}"
        ) from None
    if len(flat_sequence) != treespec.num_leaves:
        raise ValueError(
            f"The structure has {treespec.num_leaves} leaves but `flat_sequence` has "
            f"{len(flat_sequence)} items.\nStructure: {structure!r}\n"
            f"flat_sequence: {flat_sequence!r}"
        )
    return optree.tree_unflatten(treespec, flat_sequence)


def traverse(func, structure, top_down=True):
    """Visits every sub-structure of `structure`, depth first.

    Top-down: when `func(sub)` returns something other than None, that value
    replaces `sub` and its children are not visited. Bottom-up: children are
    transformed first and `func`'s non-None result replaces the sub-structure.
    Return `MAP_TO_NONE` to put `None` in place of a sub-structure.

    >>> traverse(lambda x: "x" if x == [3] else None, [(1, 2), [3]])
    [(1, 2), 'x']
    """
    if not callable(func):
        raise TypeError(f"traverse needs a callable `func`. Received: {func!r}")

    def children_mapped(node):
        if not is_nested(node):
            return node
        children, treespec = optree.tree_flatten(
            node, is_leaf=lambda x: x is not node, none_is_leaf=True, namespace=NAMESPACE
        )
        return optree.tree_unflatten(treespec, [visit(child) for child in children])

    def visit(node):
        if top_down:
            result = func(node)
            if result is None:
                return children_mapped(node)
        else:
            node = children_mapped(node)
            result = func(node)
            if result is None:
                return node
        return None if result is MAP_TO_NONE else result

    return visit(structure)


def lists_to_tuples(structure):
    """Returns `structure` with every list turned into a tuple.

    Args:
        structure: a nested structure.

    Returns:
        The same structure with tuples in place of lists (at every depth).

    Example:

    >>> lists_to_tuples({"a": [1, [2, 3]]})
    {'a': (1, (2, 3))}
    """
    return traverse(lambda x: tuple(x) if isinstance(x, list) else None, structure, top_down=False)


def _is_shape_tuple(x):
    return isinstance(x, (list, tuple)) and all(isinstance(d, (int, type(None))) for d in x)


def map_shape_structure(func, structure):
    """Like `map_structure`, with shape tuples (ints and Nones) taken as leaves.

    >>> map_shape_structure(len, {"a": (None, 3), "b": [(2,), (4, 5, 6)]})
    {'a': 2, 'b': [1, 3]}
    """
    return optree.tree_map(
        func, structure, is_leaf=_is_shape_tuple, none_is_leaf=True, namespace=NAMESPACE
    )
