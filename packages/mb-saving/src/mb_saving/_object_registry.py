"""The registry of custom objects: ``register_keras_serializable`` and its scopes.

A class or function registered with ``@register_keras_serializable(package="pkg")``
is written as ``registered_name: "pkg>Name"`` and found again by that name when a
file is loaded. Objects passed in ``custom_objects=`` or active in a
`custom_object_scope` are found by their plain name too. Registration is the
caller's explicit consent: registered classes are the only user code a load in
safe mode runs.
"""

import inspect

import mb_layers
from mb_graph import custom_objects_in_scope, find_scoped_object
from mb_graph import scoped_objects as scoped_objects

_GLOBAL_CUSTOM_OBJECTS = {}  # registered name -> class or function
_GLOBAL_CUSTOM_NAMES = {}  # id(class or function) -> registered name


class _RegisteredName:
    """Class attribute ``_mb_registered_name``: the name, on the registered class only.

    mb_layers reads ``cls._mb_registered_name`` to write ``registered_name``;
    a descriptor keeps an unregistered subclass from inheriting its parent's name.
    """

    def __init__(self, owner, name):
        self.owner = owner
        self.name = name

    def __get__(self, obj, objtype=None):
        cls = objtype if objtype is not None else type(obj)
        return self.name if cls is self.owner else None


def register_keras_serializable(package="Custom", name=None):
    """Registers a class or function under ``"<package>>(name)"`` for (de)serialization.

    Args:
        package: the namespace of the name (default ``"Custom"``).
        name: the name within the package (default: the object's ``__name__``).

    Raises:
        ValueError: when the name is taken by another object, or a class has
            no ``get_config``.

    Example:

    >>> import mb_layers
    >>> @register_keras_serializable(package="docs")
    ... class Doubler(mb_layers.Layer):
    ...     def call(self, x):
    ...         return x * 2
    >>> get_registered_name(Doubler)
    'docs>Doubler'
    """
    if not isinstance(package, str) or ">" in package:
        raise ValueError(f"`package` must be a string without '>'. Received: {package!r}.")

    def decorator(target):
        short = name if name is not None else getattr(target, "__name__", None)
        if not short:
            raise ValueError(f"Cannot register {target!r}: it has no __name__; pass `name=`.")
        registered = f"{package}>{short}"
        if inspect.isclass(target) and not hasattr(target, "get_config"):
            raise ValueError(
                f"Cannot register class {target.__name__}: it has no get_config() method, "
                "so it cannot be serialized. Define get_config() (and from_config if the "
                "constructor takes objects)."
            )
        existing = _GLOBAL_CUSTOM_OBJECTS.get(registered)
        if existing is not None and existing is not target:
            raise ValueError(
                f"The name '{registered}' is already registered to {existing!r}. Pick another "
                "`name` or `package`."
            )
        _GLOBAL_CUSTOM_OBJECTS[registered] = target
        _GLOBAL_CUSTOM_NAMES[id(target)] = registered
        if inspect.isclass(target):
            target._mb_registered_name = _RegisteredName(target, registered)
        else:
            target._mb_registered_name = registered
        return target

    return decorator


def get_registered_name(obj):
    """The name `obj` is registered under, else its ``__name__``."""
    registered = _GLOBAL_CUSTOM_NAMES.get(id(obj))
    if registered is not None and _GLOBAL_CUSTOM_OBJECTS.get(registered) is obj:
        return registered
    return obj.__name__


def get_custom_objects():
    """The global dict of registered objects (name -> object); editing it registers too."""
    return _GLOBAL_CUSTOM_OBJECTS


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered (or in scope, or given) under `name`, else None.

    Looks, in order, in the active `custom_object_scope`\\ s (innermost first),
    the global registry, `custom_objects` and `module_objects`.
    """
    scoped = find_scoped_object(name)
    if scoped is not None:
        return scoped
    if name in _GLOBAL_CUSTOM_OBJECTS:
        return _GLOBAL_CUSTOM_OBJECTS[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


class CustomObjectScope:
    """Makes objects findable by name while deserializing, inside a ``with`` block.

    Args:
        custom_objects: a dict ``{name: class or function}`` (or None).

    Example:

    >>> def my_activation(x):
    ...     return x
    >>> with CustomObjectScope({"my_activation": my_activation}):
    ...     get_registered_object("my_activation") is my_activation
    True
    """

    def __init__(self, custom_objects):
        if custom_objects is not None and not isinstance(custom_objects, dict):
            raise TypeError(
                "CustomObjectScope takes a dict {name: object}. Received: "
                f"{custom_objects!r} (of type {type(custom_objects).__name__})."
            )
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        # The stack is mb_graph's, so every package's from_config sees the scope.
        self._scope = custom_objects_in_scope(self.custom_objects)
        return self._scope.__enter__()

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)


custom_object_scope = CustomObjectScope


def _lookup_for_layers(name):
    # mb_layers consults this before its built-in tables.
    return get_registered_object(name)


mb_layers.set_custom_object_lookup(_lookup_for_layers)
