"""Tracking of sub-layers, variables and seed generators held in attributes.

A layer hands every attribute value to its `Tracker`. Layers, variables and
seed generators are registered with the owner; plain lists and dicts are
replaced by `TrackedList` / `TrackedDict`, which keep registering what is
added to them later (and forget what is removed); tuples are walked.
"""

from mb_graph import tree

# Bumped whenever any layer's variables, sub-layers or seed generators change, a layer
# is (un)frozen or (re)built: a model whose compiled step depends on its variables
# checks the number instead of walking its layers on every call. One process-wide
# number: a layer does not know which models hold it.
_structure_version = 0


def structure_version():
    """The number of structure changes of any layer so far (see `structure_changed`):
    unchanged means no layer gained or lost a variable, sub-layer or seed generator,
    was frozen or unfrozen, or was (re)built since it was read."""
    return _structure_version


def structure_changed():
    """Records that some layer's variables, sub-layers or trainability changed."""
    global _structure_version
    _structure_version += 1


class Tracker:
    """Sends trackable objects to ``owner._track_object`` / ``owner._untrack_object``."""

    def __init__(self, owner):
        self.owner = owner

    def track(self, value):
        """Registers `value` (or its elements) and returns what to store."""
        if isinstance(value, (TrackedList, TrackedDict)) and value._tracker is self:
            return value
        if type(value) is list:
            return TrackedList(value, self)
        if type(value) is dict:
            return TrackedDict(value, self)
        if isinstance(value, tuple):
            items = [self.track(v) for v in value]
            if hasattr(value, "_fields"):
                return type(value)(*items)
            return tuple(items) if type(value) is tuple else type(value)(items)
        if isinstance(value, (TrackedList, list)):
            for v in value:
                self.track(v)
            return value
        if isinstance(value, (TrackedDict, dict)):
            for v in value.values():
                self.track(v)
            return value
        self.owner._track_object(value)
        return value

    def untrack(self, value):
        """Forgets `value` (and the elements of containers)."""
        if isinstance(value, (list, tuple)):
            for v in value:
                self.untrack(v)
        elif isinstance(value, dict):
            for v in value.values():
                self.untrack(v)
        else:
            self.owner._untrack_object(value)


@tree.register_tree_node_class
class TrackedList(list):
    """A list whose elements are tracked by the layer that holds it.

    For `mb_graph.tree` it is a container like a list (mapping over it gives
    a plain list).
    """

    def tree_flatten(self):
        return list(self), None, None

    @classmethod
    def tree_unflatten(cls, metadata, children):
        return list(children)

    def __init__(self, values=(), tracker=None):
        self._tracker = tracker
        super().__init__(tracker.track(v) for v in values)

    def append(self, value):
        super().append(self._tracker.track(value))

    def insert(self, index, value):
        super().insert(index, self._tracker.track(value))

    def extend(self, values):
        super().extend(self._tracker.track(v) for v in values)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def __setitem__(self, index, value):
        old = self[index]
        if isinstance(index, slice):
            value = [self._tracker.track(v) for v in value]
        else:
            value = self._tracker.track(value)
        super().__setitem__(index, value)
        self._tracker.untrack(old)

    def __delitem__(self, index):
        old = self[index]
        super().__delitem__(index)
        self._tracker.untrack(old)

    def remove(self, value):
        super().remove(value)
        self._tracker.untrack(value)

    def pop(self, index=-1):
        value = super().pop(index)
        self._tracker.untrack(value)
        return value

    def clear(self):
        old = list(self)
        super().clear()
        self._tracker.untrack(old)

    def __reduce__(self):
        return (list, (list(self),))


@tree.register_tree_node_class
class TrackedDict(dict):
    """A dict whose values are tracked by the layer that holds it (a dict for `tree`)."""

    def tree_flatten(self):
        keys = sorted(self)
        return [self[k] for k in keys], keys, keys

    @classmethod
    def tree_unflatten(cls, metadata, children):
        return dict(zip(metadata, children, strict=True))

    def __init__(self, values=(), tracker=None):
        self._tracker = tracker
        super().__init__((k, tracker.track(v)) for k, v in dict(values).items())

    def __setitem__(self, key, value):
        old = self.get(key)
        super().__setitem__(key, self._tracker.track(value))
        if old is not None and old is not value:
            self._tracker.untrack(old)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __delitem__(self, key):
        old = self[key]
        super().__delitem__(key)
        self._tracker.untrack(old)

    def pop(self, key, *default):
        had = key in self
        value = super().pop(key, *default)
        if had:
            self._tracker.untrack(value)
        return value

    def clear(self):
        old = list(self.values())
        super().clear()
        self._tracker.untrack(old)

    def __reduce__(self):
        return (dict, (dict(self),))
