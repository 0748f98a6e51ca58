"""Which objects own variables, and at which path of the weights file (Keras's walk).

Keras 3 names an object's group by how it is reached from the model, not by
its name: start at the model (path ``""``); for networks visit ``layers``
first; then each attribute in sorted order (private ones last), skipping the
attributes every bare object of that type has; an object in an attribute
``foo`` is at ``<path>/foo``, one inside a list/tuple/dict at
``<path>/<attr>/<snake_case(ClassName)>`` (``_1``, ``_2``, ... for repeats,
``container`` for nested containers); each object once, at its first path
(keras-file-format.md section 2.6). mb computes the same paths for its own
classes, so files interchange; it also records which variables sit where
(the manifest) so that load errors can be precise.
"""

import functools

import mb_layers
from mb_graph.naming import to_snake_case
from mb_train.models import Model


def is_optimizer(obj):
    """An optimizer: builds over variables and applies gradients (duck-typed)."""
    return (
        not isinstance(obj, mb_layers.Layer)
        and not isinstance(obj, type)
        and callable(getattr(obj, "apply", None))
        and callable(getattr(obj, "build", None))
        and hasattr(obj, "variables")
    )


def is_saveable(obj):
    return isinstance(obj, mb_layers.Layer) or is_optimizer(obj)


def object_type(obj):
    if isinstance(obj, mb_layers.Functional):
        return "Functional"
    if isinstance(obj, mb_layers.Sequential):
        return "Sequential"
    if isinstance(obj, Model):
        return "Model"
    if isinstance(obj, mb_layers.Layer):
        return "Layer"
    return "Optimizer"


@functools.cache
def _bare_layer_attributes():
    return frozenset(dir(mb_layers.Layer(name="_mb_saving_reference_layer")))


def skipset(kind):
    """Attributes not walked for an object of `kind` (those of a bare object)."""
    base = _bare_layer_attributes() | {"_self_unconditional_dependency_names"}
    if kind == "Model":
        # Keras's Model has a `layers` property that its walk visits (a bare
        # Keras Layer has none); mb's bare Layer has one, so keep it for models.
        return base - {"layers"}
    if kind == "Functional":
        return base | {"operations", "_operations"}
    if kind == "Sequential":
        return base | {"_functional"}
    return base


def _name_key(name):
    return f"~{name}" if name.startswith("_") else name


def children(obj):
    """``(attribute, value)`` pairs of `obj` in the walk's order."""
    kind = object_type(obj)
    if kind == "Optimizer":
        names = sorted(vars(obj), key=_name_key)
        for name in names:
            if not name.startswith("__"):
                yield name, vars(obj)[name]
        return
    if kind in ("Sequential", "Functional"):
        yield "layers", obj.layers
    skip = skipset(kind)
    for name in sorted(dir(obj), key=_name_key):
        if name.startswith("__") or name in skip:
            continue
        try:
            value = getattr(obj, name)
        except Exception:
            continue
        yield name, value


def _join(path, name):
    return f"{path}/{name}" if path else name


def _unique(name, used):
    if name in used:
        used[name] += 1
        return f"{name}_{used[name]}"
    used[name] = 0
    return name


def walk(root, skip=()):
    """Every saveable object reachable from `root`, as ``(path, object)`` in file order.

    Args:
        root: the model (or layer).
        skip: objects not to visit (e.g. the optimizer when it is not loaded).
    """
    found = []
    visited = {id(o) for o in skip}

    def visit(obj, path):
        if id(obj) in visited:
            return
        visited.add(id(obj))
        found.append((path, obj))
        for name, value in children(obj):
            if is_saveable(value):
                visit(value, _join(path, name))
            elif isinstance(value, (list, tuple, dict)):
                visit_container(value, _join(path, name), set())

    def visit_container(container, path, seen):
        if id(container) in seen:
            return
        seen.add(id(container))
        used = {}
        items = list(container.values()) if isinstance(container, dict) else list(container)
        for item in items:
            if is_saveable(item):
                visit(item, _join(path, _unique(to_snake_case(type(item).__name__), used)))
            elif isinstance(item, (list, tuple, dict)):
                visit_container(item, _join(path, _unique("container", used)), seen)

    visit(root, "")
    return found


def own_variables(obj):
    """The variables an object writes itself, in file order."""
    if isinstance(obj, mb_layers.Layer):
        return list(obj._trainable_variables) + list(obj._non_trainable_variables)
    return list(obj.variables)


def describe(obj):
    """``layer 'dense_1' (Dense)`` / ``optimizer 'adam' (Adam)``."""
    kind = "optimizer" if is_optimizer(obj) else "layer"
    if isinstance(obj, Model):
        kind = "model"
    name = getattr(obj, "name", None)
    return f"{kind} '{name}' ({type(obj).__name__})" if name else f"{kind} {type(obj).__name__}"


def manifest(root, skip=()):
    """The variables of each object, by path: what mb writes into its metadata."""
    entries = []
    for path, obj in walk(root, skip):
        variables = own_variables(obj)
        entries.append(
            {
                "path": path,
                "class_name": type(obj).__name__,
                "name": getattr(obj, "name", None),
                "variables": [
                    {
                        "name": v.name,
                        "path": v.path,
                        "shape": list(v.shape),
                        "dtype": str(v.dtype),
                    }
                    for v in variables
                ],
            }
        )
    return entries
